import type { ErrorCatalog } from '../../http/errors.ts';
import type { ApiTag } from '../../http/openapi.ts';

// What payments declares to the generic layers: its tag and its error codes (docs/payments.md).

export const paymentsTag: ApiTag = {
  name: 'payments',
  group: 'Storefront',
  description: "Card payments: the test provider's customer steps and the providers' signed events.",
};

export const paymentErrors = {
  PAYWAY_INVALID: { status: 422, meaning: 'The payment method is unknown or not offered now.' },
  PAYMENT_EVENT_INVALID: {
    status: 400,
    meaning: "A provider's event whose signature is missing, wrong or older than 5 minutes.",
  },
  PAYMENT_PROVIDER_FAILED: {
    status: 502,
    meaning: 'The card provider refused the call or could not be reached; nothing was changed.',
  },
} as const satisfies ErrorCatalog;

type PaymentErrors = typeof paymentErrors;
declare module '../../http/errors.ts' {
  interface FeatureErrorCodes extends PaymentErrors {}
}
