import type { ApiTag } from '../../http/openapi.ts';

export const loyaltyTag: ApiTag = {
  name: 'loyalty',
  group: 'Back office',
  description: 'Loyalty points: the ledger and manual adjustments.',
};
