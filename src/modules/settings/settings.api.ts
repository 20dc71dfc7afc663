import type { ApiTag } from '../../http/openapi.ts';

// The tags of the settings module's routes: the storefront reads, the back office's registry
// (which back-office users and the audit log share).

export const storefrontTag: ApiTag = {
  name: 'storefront',
  group: 'Storefront',
  description: 'Capability flags and storefront settings, readable by anyone.',
};

export const systemTag: ApiTag = {
  name: 'system',
  group: 'Back office',
  description: 'Back-office users, the settings registry and the audit log of back-office writes.',
};
