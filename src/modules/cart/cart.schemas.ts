import { type Static, Type } from '@sinclair/typebox';
import { Id } from '../../resources/index.ts';

export const CartLineJson = Type.Object({
  productId: Type.Integer(),
  variantId: Type.Integer({ description: "The line's key: PATCH and DELETE /rest/cart/items/{id} take it" }),
  sku: Type.String(),
  name: Type.String(),
  options: Type.Record(Type.String(), Type.String(), {
    description: "The variant's options, {} for a product without",
  }),
  slug: Type.String(),
  image: Type.Union([Type.String(), Type.Null()], {
    description: "The variant's first image, else the product's",
  }),
  unitPrice: Type.Number({ description: 'Current gross unit price (decimal)' }),
  qty: Type.Integer(),
  lineTotal: Type.Number({ description: 'unitPrice × qty (decimal)' }),
  stockStatus: Type.Union(
    [Type.Literal('in_stock'), Type.Literal('low_stock'), Type.Literal('out_of_stock')],
    {
      description: 'Of the variant; out_of_stock also when fewer units are on hand than the line holds',
    },
  ),
  availableQty: Type.Integer({ description: 'Units of the variant on hand now' }),
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
  {
    variantId: Type.Optional({ ...Id, description: 'The variant to add' }),
    productId: Type.Optional({
      ...Id,
      description: 'Instead of variantId, for a product with one variant (422 VARIANT_REQUIRED otherwise)',
    }),
    qty: Type.Integer({ minimum: 1, maximum: 999 }),
  },
  { additionalProperties: false, description: 'variantId, or productId of a product with one variant' },
);

export const SetQtyBody = Type.Object(
  { qty: Type.Integer({ minimum: 0, maximum: 999, description: '0 removes the line' }) },
  { additionalProperties: false },
);

/** A cart line's key: the variant id (for a product with one variant, its id is the product's). */
export const LineIdParams = Type.Object({ id: Id });

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
