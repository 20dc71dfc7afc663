import { Type } from '@sinclair/typebox';
import { INTENT_STATUSES } from './providers/provider.ts';

export const PaymentMethodJson = Type.Object(
  {
    code: Type.Union([Type.Literal('delivery'), Type.Literal('bank_transfer'), Type.Literal('card')], {
      description: 'The payWay to send to totals and place-order',
    }),
    name: Type.String(),
    kind: Type.Union([Type.Literal('offline'), Type.Literal('card')]),
    provider: Type.Union([Type.String(), Type.Null()], {
      description: 'The card provider (test, stripe); null for offline methods',
    }),
  },
  { $id: 'PaymentMethod' },
);

// A card payment's status: where the provider's intent stands, or `mismatch` (docs/payments.md).
const IntentStatus = Type.Union([...INTENT_STATUSES, 'mismatch'].map((s) => Type.Literal(s)));

/** The card payment an order answers (payWay "card"). */
export const CardPaymentJson = Type.Object(
  {
    provider: Type.String({ description: 'test or stripe' }),
    intentId: Type.String(),
    clientSecret: Type.String({ description: "Confirms the payment from the customer's browser" }),
    status: IntentStatus,
    attempts: Type.Integer({
      minimum: 0,
      description: "The customer's tries the provider reported (declined, authorized or succeeded)",
    }),
    refunds: Type.Array(
      Type.Object({
        amount: Type.Number({ description: 'Refunded to the card (decimal)' }),
        status: Type.Union([Type.Literal('pending'), Type.Literal('succeeded'), Type.Literal('failed')]),
        providerRefundId: Type.Union([Type.String(), Type.Null()]),
        at: Type.String({ format: 'date-time' }),
      }),
    ),
  },
  { $id: 'CardPayment' },
);

const IntentId = Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_-]+$' });

export const ConfirmBody = Type.Object(
  { intentId: IntentId, cardNumber: Type.String({ pattern: '^[0-9]{12,19}$' }) },
  { additionalProperties: false },
);

export const AuthenticateBody = Type.Object(
  { intentId: IntentId, outcome: Type.Union([Type.Literal('pass'), Type.Literal('fail')]) },
  { additionalProperties: false },
);

export const StepAnswerJson = Type.Object({
  status: IntentStatus,
  nextAction: Type.Union([Type.Object({ type: Type.Literal('redirect'), url: Type.String() }), Type.Null()]),
  declineCode: Type.Union([Type.String(), Type.Null()], {
    description: 'Why the attempt was declined (card_declined, authentication_failed, incorrect_number)',
  }),
});

export const WebhookAnswer = Type.Object({
  received: Type.Literal(true),
  duplicate: Type.Boolean({ description: 'The event id was processed before: nothing changed' }),
});
