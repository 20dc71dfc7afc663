import type { ErrorCatalog } from '../../http/errors.ts';
import type { ApiHeader, ApiTag } from '../../http/openapi.ts';

// What checkout declares to the generic layers: its tag, its error codes and its header.

export const checkoutTag: ApiTag = {
  name: 'checkout',
  group: 'Storefront',
  description: 'Shipping methods, coupons, gift rules, totals and placing an order.',
};

export const checkoutErrors = {
  TOTAL_CHANGED: { status: 409, meaning: 'The total or the points balance changed since it was shown.' },
  CART_EMPTY: { status: 422, meaning: 'There is nothing to order.' },
  IDEMPOTENCY_KEY_REUSED: { status: 422, meaning: 'The Idempotency-Key was used with another body.' },
} as const satisfies ErrorCatalog;

type CheckoutErrors = typeof checkoutErrors;
declare module '../../http/errors.ts' {
  interface FeatureErrorCodes extends CheckoutErrors {}
}

/** Sent with a placed order's answer when it is the one kept for its Idempotency-Key. */
export const idempotentReplayedHeader: Record<string, ApiHeader> = {
  'Idempotent-Replayed': {
    description: '"true" when the answer is the stored one of an earlier call with the same Idempotency-Key.',
    schema: { type: 'string' },
  },
};
