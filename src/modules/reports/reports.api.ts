import type { ApiTag } from '../../http/openapi.ts';

export const reportTag: ApiTag = {
  name: 'report',
  group: 'Back office',
  description: 'Sales, products, coupons and loyalty figures, and the order export; JSON or CSV.',
};
