import type { ErrorCatalog } from '../../http/errors.ts';
import type { ApiTag } from '../../http/openapi.ts';

// What the customers module declares to the generic layers: its tag and its error codes.

export const customerTag: ApiTag = {
  name: 'customer',
  group: 'Storefront',
  description: 'Customers, their addresses and wishlists: a customer their own, the back office all.',
};

export const customerErrors = {
  EMAIL_NOT_VERIFIED: {
    status: 403,
    meaning: 'The shop asks for a confirmed e-mail address before an order.',
  },
  EMAIL_TAKEN: { status: 409, meaning: 'The e-mail address is already registered.' },
} as const satisfies ErrorCatalog;

type CustomerErrors = typeof customerErrors;
declare module '../../http/errors.ts' {
  interface FeatureErrorCodes extends CustomerErrors {}
}
