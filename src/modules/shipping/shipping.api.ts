import type { ErrorCatalog } from '../../http/errors.ts';

// The error codes of shipping (its routes are under the checkout tag).

export const shippingErrors = {
  TRANSPORT_INVALID: { status: 422, meaning: 'No shipping method chosen, or one that is not offered.' },
  SHIPPING_UNAVAILABLE: { status: 422, meaning: 'The shipping method does not deliver to this address.' },
  ZONE_CONFLICT: {
    status: 409,
    meaning: 'Another shipping zone holds the same addresses, as specifically and with the same priority.',
  },
} as const satisfies ErrorCatalog;

type ShippingErrors = typeof shippingErrors;
declare module '../../http/errors.ts' {
  interface FeatureErrorCodes extends ShippingErrors {}
}
