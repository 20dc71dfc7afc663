import type { ErrorCatalog } from '../../http/errors.ts';
import type { ApiTag } from '../../http/openapi.ts';

// What the orders module declares to the generic layers: its tag and its error code.

export const orderTag: ApiTag = {
  name: 'order',
  group: 'Storefront',
  description:
    'Orders: a customer reads their own; the back office reads all and moves them between statuses.',
};

export const orderErrors = {
  ILLEGAL_TRANSITION: {
    status: 409,
    meaning: 'The order or its payment cannot move to that state from its own.',
  },
} as const satisfies ErrorCatalog;

type OrderErrors = typeof orderErrors;
declare module '../../http/errors.ts' {
  interface FeatureErrorCodes extends OrderErrors {}
}
