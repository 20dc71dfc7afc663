import { type TObject, Type } from '@sinclair/typebox';
import { and, eq, sql } from 'drizzle-orm';
import { defineResource, field, type Resource, createBody } from '../../resources/index.ts';
import { Role } from '../../http/roles.ts';
import { productVariants } from './catalog.tables.ts';
import { productResource } from './product.resource.ts';
import { variantHooks } from './variant.service.ts';
import { mediaField, withMedia } from '../media/media-field.ts';
import { LOW_STOCK_BELOW } from './stock.ts';
import { shopperVariantPrice } from './sale-price.ts';

const v = productVariants;

const stockStatus = sql<string>`case when ${v.stockQty} <= 0 then 'out_of_stock'
  when ${v.stockQty} < ${sql.raw(String(LOW_STOCK_BELOW))} then 'low_stock' else 'in_stock' end`;

/** Option name → value: one value per option the product declares. */
export const VariantOptions = Type.Record(
  Type.String({ minLength: 1, maxLength: 50 }),
  Type.String({ minLength: 1, maxLength: 100 }),
  {
    maxProperties: 5,
    description: 'Option name → value, one per option the product declares, e.g. {"Size":"M"}',
  },
);

/** `product/variant`: what a customer buys (docs/catalog.md). Read by everyone, active ones for the storefront. */
export const variantResource: Resource = defineResource({
  domain: 'product',
  entity: 'variant',
  description: 'product variants',
  table: productVariants,
  fields: {
    id: field.id(v.id),
    productId: field.int(v.productId, { create: 'required', update: false, filter: 'eq', min: 1 }),
    sku: field.text(v.sku, { create: 'required', filter: 'eq', search: true, minLength: 1, maxLength: 64 }),
    options: field.json(v.options, VariantOptions, { create: 'optional' }),
    price: {
      ...field.money(v.price, {
        create: 'optional',
        nullable: true,
        filter: 'range',
        sort: true,
        description: "Gross price; null means the product's price; shoppers see it lowered by a running catalog promotion",
      }),
      readAs: shopperVariantPrice,
    },
    referencePrice: field.money(v.referencePrice, {
      nullable: true,
      description:
        'Lowest price of the 30 days before the current price took effect; null when price tracking is off',
      shownWhen: 'price_tracking_enabled',
    }),
    stockQty: field.int(v.stockQty, { read: 'backend', create: 'optional', filter: 'range', volatile: true }),
    stockStatus: field.computed(
      Type.Unsafe<string>({ type: 'string', enum: ['in_stock', 'low_stock', 'out_of_stock'] }),
      () => stockStatus,
    ),
    inStock: field.computed(Type.Boolean(), () => sql<boolean>`${v.stockQty} > 0`),
    weightKg: field.decimal(v.weightKg, {
      create: 'optional',
      nullable: true,
      max: 100_000,
      description: "null means the product's weight",
    }),
    images: field.urls(v.images, { create: 'optional', maxItems: 20 }),
    media: mediaField(v.media),
    position: field.int(v.position, { create: 'optional', sort: true, max: 1_000_000 }),
    active: field.bool(v.active, { create: 'optional', filter: 'eq' }),
    createdAt: field.timestamp(v.createdAt, { read: 'backend', sort: true }),
    updatedAt: field.timestamp(v.updatedAt, { read: 'backend' }),
  },
  relations: {
    product: { kind: 'one', target: () => productResource, key: 'productId', read: 'public' },
  },
  read: { access: 'public' },
  write: { roles: [Role.Products] },
  // Guests and customers see active variants of active products only.
  storefront: () =>
    // biome-ignore lint/style/noNonNullAssertion: and() of two conditions is never undefined
    and(
      eq(v.active, true),
      // Qualified by hand: drizzle leaves columns unqualified in a one-table select.
      sql`exists (select 1 from product p where p.id = "product_variant"."product_id" and p.active)`,
    )!,
  defaultSort: 'position',
  publicCache: true,
  hooks: withMedia({ name: 'images', list: true }, variantHooks),
});

/** A variant inside a product's create body: the variant's create fields but its product. */
export function nestedVariantBody(): TObject {
  const { productId: _product, ...props } = createBody(variantResource).properties;
  return Type.Object(props, { additionalProperties: false });
}
