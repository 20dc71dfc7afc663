import type { ErrorCatalog } from '../../http/errors.ts';

// The error codes of shipping (its routes are under the checkout tag).

export const shippingErrors = {
  TRANSPORT_INVALID: { status: 422, meaning: 'No shipping method chosen, or one that is not offered.' },
} as const satisfies ErrorCatalog;

type ShippingErrors = typeof shippingErrors;
declare module '../../http/errors.ts' {
  interface FeatureErrorCodes extends ShippingErrors {}
}
