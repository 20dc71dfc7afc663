// Taking money and checking buyers: card payments and B2B VAT ids (src/config.ts).
import { Type } from '@sinclair/typebox';

export const PaymentsConfig = Type.Object(
  {
    /** Who serves payWay "card"; unset: as `cardProviderOf` (src/config.ts) derives. */
    cardProvider: Type.Optional(
      Type.Union([Type.Literal('test'), Type.Literal('stripe'), Type.Literal('none')]),
    ),
    /** An unpaid card order is cancelled this long after it was placed. */
    pendingTimeoutMinutes: Type.Integer({ minimum: 1, maximum: 10_080, default: 30 }),
    stripe: Type.Object(
      {
        secretKey: Type.Optional(Type.String({ minLength: 1 })),
        webhookSecret: Type.Optional(Type.String({ minLength: 1 })),
        /** Stripe's API by default; tests point it at a local emulator (protocol, host and port). */
        apiBase: Type.Optional(Type.String({ pattern: '^https?://' })),
      },
      { additionalProperties: false, default: {} },
    ),
  },
  { additionalProperties: false, default: {} },
);

export const VatIdsConfig = Type.Object(
  {
    registry: Type.Union([Type.Literal('offline')], { default: 'offline' }),
    /** Ids the offline registry answers as not registered. */
    unregistered: Type.Array(Type.String({ maxLength: 20 }), { default: [], maxItems: 10_000 }),
  },
  { additionalProperties: false, default: {} },
);
