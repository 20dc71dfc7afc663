import { type Static, Type } from '@sinclair/typebox';

// Request and response schemas of the totals quote, shared by the checkout and the stored order (docs/checkout.md).
// Bodies are closed (additionalProperties: false): a client can never send a price, a discount or a
// total, and a misspelt field is a 400 rather than silently ignored.

const Id = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });
const Money = (description: string) => Type.Number({ description: `${description} (gross, decimal)` });

export const PayWay = Type.Union(
  [Type.Literal('delivery'), Type.Literal('card'), Type.Literal('bank_transfer')],
  {
    description: '"delivery" is cash on delivery and adds the transport\'s codFee',
  },
);

export type PayWayType = Static<typeof PayWay>;

export const SelectedGiftBody = Type.Object(
  {
    giftId: Id,
    productId: Id,
    variantId: Type.Optional({ ...Id, description: 'Which variant, for a gift product with several' }),
    qty: Type.Integer({ minimum: 1, maximum: 999 }),
  },
  { additionalProperties: false },
);

export const totalsFields = {
  transportId: Type.Optional(Id),
  countryAlpha2: Type.Optional(Type.String({ pattern: '^[A-Za-z]{2}$' })),
  countyAlpha: Type.Optional(Type.String({ minLength: 1, maxLength: 10, pattern: '^[A-Za-z0-9-]+$' })),
  postalCode: Type.Optional(Type.String({ minLength: 1, maxLength: 16, pattern: '^[A-Za-z0-9 -]+$' })),
  vatId: Type.Optional(
    Type.String({
      minLength: 4,
      maxLength: 20,
      pattern: '^[A-Za-z]{2}[A-Za-z0-9 .+*-]{2,18}$',
      description:
        "A business buyer's EU VAT id (EL094014201); with the setting b2b_reverse_charge it may earn the reverse charge",
    }),
  ),
  payWay: Type.Optional(PayWay),
  redeemPoints: Type.Optional(Type.Boolean()),
  giftPackaging: Type.Optional(Type.Boolean()),
  selectedGifts: Type.Optional(Type.Array(SelectedGiftBody, { maxItems: 20 })),
};

export const TotalsBody = Type.Object(totalsFields, {
  additionalProperties: false,
  description: 'Every field is optional; without transportId there is no shipping or delivery cost',
});
export type TotalsBodyType = Static<typeof TotalsBody>;

export const LoyaltyJson = Type.Object({
  pointSystemEnabled: Type.Boolean(),
  spendPoints: Type.Integer(),
  rewardCashPerUnit: Type.Number(),
  balance: Type.Integer(),
  redeemablePoints: Type.Integer(),
  redeemableCash: Type.Number(),
  canRedeem: Type.Boolean(),
  wouldExceed: Type.Boolean(),
});

export const GiftErrorJson = Type.Object({
  giftId: Type.Integer(),
  productId: Type.Integer(),
  reason: Type.String({
    description:
      'GIFT_UNKNOWN, GIFT_INACTIVE, GIFT_CART_EMPTY, GIFT_MIN_SUBTOTAL, GIFT_PRODUCT_NOT_ELIGIBLE, GIFT_VARIANT_REQUIRED (a product with several variants needs variantId) or GIFT_QTY_EXCEEDED',
  }),
});

const totalsProperties = {
  subtotal: Money('Goods plus the value of accepted gifts'),
  itemCount: Type.Integer({ description: 'Units in the cart, accepted gifts included' }),
  shippingCost: Money('Shipping, overweight included'),
  overweightCost: Money('Already inside shippingCost: never add it again'),
  deliveryCost: Money('Cash-on-delivery fee'),
  promotionDiscount: Money('Cart promotions deducted from the goods, before the coupon and shipping'),
  promotions: Type.Array(
    Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      amount: Money('What this promotion took off'),
    }),
    { description: 'The cart promotions applied, in the order they applied' },
  ),
  couponDiscount: Money('Coupon amount deducted from the goods (after the cart promotions) before shipping'),
  giftPackagingCost: Money('Charged on top'),
  giftDiscount: Money('Value of the accepted gifts, which are free'),
  pointsSpend: Type.Integer({ description: 'Points spent' }),
  pointsCash: Money('Cash value of the points spent'),
  payableBeforePoints: Money('The total before points: not a term of total'),
  loyalty: LoyaltyJson,
  total: Money('The amount charged: payableBeforePoints − pointsCash − reverseChargeVat'),
  reverseChargeVat: Type.Optional(
    Money('Present under the B2B reverse charge: the VAT not charged, already taken off total'),
  ),
};

/** The bare totals object (no envelope), with why anything was left out. */
export const TotalsResponse = Type.Object(
  {
    ...totalsProperties,
    couponError: Type.Optional(
      Type.String({
        description:
          "Present when the cart's coupon was left out: COUPON_UNKNOWN, COUPON_INACTIVE, COUPON_NOT_STARTED, COUPON_EXPIRED, COUPON_USED_UP, COUPON_CUSTOMER_LIMIT, COUPON_MIN_SUBTOTAL or COUPON_NOT_COMBINABLE (an applied promotion does not combine with coupons)",
      }),
    ),
    giftErrors: Type.Optional(
      Type.Array(GiftErrorJson, {
        description: 'Present when a selected gift was left out, one entry per gift',
      }),
    ),
    vatIdError: Type.Optional(
      Type.String({
        description:
          'Present when the vatId given did not earn the reverse charge: REVERSE_CHARGE_OFF, VAT_ID_DOMESTIC, VAT_ID_COUNTRY_MISMATCH or VAT_ID_UNVERIFIED (VAT is charged)',
      }),
    ),
    shippingZone: Type.Optional(
      Type.Object(
        { zoneId: Type.Integer(), zoneName: Type.String(), rateId: Type.Integer() },
        { description: "Present when a shipping zone's rate priced the shipping" },
      ),
    ),
    unavailableProducts: Type.Optional(
      Type.Array(Type.Integer(), {
        description:
          'Cart lines left out because their product is inactive or gone; place-order refuses them',
      }),
    ),
  },
  { $id: 'CheckoutTotals' },
);
export type TotalsJson = Static<typeof TotalsResponse>;

/** The figures stored with an order: the quote, without the caller-specific explanations. */
export const OrderTotals = Type.Object(totalsProperties);
