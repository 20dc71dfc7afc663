import type { ApiTag } from '../../http/openapi.ts';

export const webhooksTag: ApiTag = {
  name: 'webhooks',
  group: 'Back office',
  description: 'Webhook subscribers and the deliveries made to them.',
};
