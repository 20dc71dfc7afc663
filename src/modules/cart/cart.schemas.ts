import { type Static, Type } from '@sinclair/typebox';
import { Id } from '../../resources/schemas.ts';

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

/** The guest cart's token header, on every cart, totals and place-order call. */
export const CartTokenHeader = Type.Object({
  'x-cart-token': Type.Optional(
    Type.String({ maxLength: 200, description: 'Guest cart token; ignored for a customer' }),
  ),
});
