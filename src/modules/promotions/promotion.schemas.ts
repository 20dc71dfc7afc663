import { Type } from '@sinclair/typebox';

// The shapes of a promotion's conditions and action (docs/promotions.md). Money as decimals with at
// most two places, bounded like every money field; percents 0-100.

const Id = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });
const Money = (description: string) =>
  Type.Number({ minimum: 0, maximum: 10_000_000, multipleOf: 0.01, description });
const Percent = Type.Number({ minimum: 0, maximum: 100, multipleOf: 0.01, description: 'Percent, 0-100' });
const Qty = Type.Integer({ minimum: 1, maximum: 1000 });

export const PromotionConditionsSchema = Type.Object(
  {
    categoryIds: Type.Optional(
      Type.Array(Id, { maxItems: 200, description: 'Products of these categories or of one below them' }),
    ),
    productIds: Type.Optional(Type.Array(Id, { maxItems: 500, description: 'These products' })),
    brands: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 100 })),
    minSubtotal: Type.Optional(Money('Cart promotions: the qualifying lines reach at least this')),
    minQty: Type.Optional({ ...Qty, description: 'Cart promotions: at least this many qualifying units' }),
    customersOnly: Type.Optional(Type.Boolean({ description: 'Cart promotions: signed-in customers only' })),
  },
  {
    additionalProperties: false,
    description: 'Every list given must match (a product in one of its entries); none given: every product',
  },
);

export const PromotionActionSchema = Type.Object(
  {
    type: Type.Union([
      Type.Literal('percent'),
      Type.Literal('fixed'),
      Type.Literal('buy_x_get_y'),
      Type.Literal('tiered'),
    ]),
    value: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 10_000_000,
        multipleOf: 0.01,
        description: 'percent: the percent off; fixed: the amount off (per unit for catalog promotions)',
      }),
    ),
    buyQty: Type.Optional(Qty),
    getQty: Type.Optional(Qty),
    percent: Type.Optional({ ...Percent, description: 'buy_x_get_y: the percent off the cheapest getQty units' }),
    tiers: Type.Optional(
      Type.Array(Type.Object({ minSubtotal: Money('From this subtotal'), percent: Percent }, { additionalProperties: false }), {
        minItems: 1,
        maxItems: 10,
      }),
    ),
  },
  {
    additionalProperties: false,
    description:
      '{type: "percent"|"fixed", value}, {type: "buy_x_get_y", buyQty, getQty, percent} or {type: "tiered", tiers: [{minSubtotal, percent}]}',
  },
);

/** The fields each action type needs. */
export const ACTION_FIELDS = {
  percent: ['value'],
  fixed: ['value'],
  buy_x_get_y: ['buyQty', 'getQty', 'percent'],
  tiered: ['tiers'],
} as const;
