import { Type } from '@sinclair/typebox';

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
