import { type Static, Type } from '@sinclair/typebox';

const Id = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });

export const CartLineJson = Type.Object({
  productId: Type.Integer(),
  name: Type.String(),
  unitPrice: Type.Number({ description: 'Current gross unit price (decimal)' }),
  qty: Type.Integer(),
  lineTotal: Type.Number({ description: 'unitPrice × qty (decimal)' }),
  available: Type.Boolean({
    description: 'false when the product was deactivated: left out of totals and refused at checkout',
  }),
});

export const CartJson = Type.Object(
  {
    token: Type.Optional(
      Type.String({ description: "A guest cart's token, also sent in the X-Cart-Token header" }),
    ),
    lines: Type.Array(CartLineJson),
    couponCode: Type.Union([Type.String(), Type.Null()]),
    itemCount: Type.Integer({ description: 'Units of the available lines' }),
    goods: Type.Number({ description: 'Σ lineTotal of the available lines (decimal)' }),
  },
  { $id: 'Cart' },
);
export type CartJsonType = Static<typeof CartJson>;

export const AddItemBody = Type.Object(
  { productId: Id, qty: Type.Integer({ minimum: 1, maximum: 999 }) },
  { additionalProperties: false },
);

export const SetQtyBody = Type.Object(
  { qty: Type.Integer({ minimum: 0, maximum: 999, description: '0 removes the line' }) },
  { additionalProperties: false },
);

export const ProductIdParams = Type.Object({ productId: Id });

export const CouponBody = Type.Object(
  { code: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);
