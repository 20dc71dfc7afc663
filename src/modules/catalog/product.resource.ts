import { Type } from '@sinclair/typebox';
import { eq, sql } from 'drizzle-orm';
import {
  CUSTOMER_ID,
  defineResource,
  field,
  filterable,
  parseOneOf,
  type Resource,
} from '../../resources/index.ts';
import { Role } from '../../http/roles.ts';
import { TAX_CLASSES } from '../pricing/destination-vat.ts';
import { products } from './catalog.tables.ts';
import { catalogSaleValues } from './catalog-sales.ts';
import { categoryResource } from './category.resource.ts';
import { categoryFilter, onSaleParam, optionParam } from './product-filters.ts';
import { productSearch } from './product-search.ts';
import { salePriceSql, shopperPrice, shopperReferencePrice } from './sale-price.ts';
import { productHooks } from './product.service.ts';
import { mediaField, withMedia } from '../media/media-field.ts';
import { currencySql } from '../settings/settings.service.ts';
import { LOW_STOCK_BELOW } from './stock.ts';
import { nestedVariantBody, variantResource } from './variant.resource.ts';

export { LOW_STOCK_BELOW };

const STOCK_STATUSES = ['in_stock', 'low_stock', 'out_of_stock'] as const;

// Stock is the variants' sum; in_stock says whether any active variant has some (a trigger keeps both).
const stockStatus = sql<string>`case when not ${products.inStock} or ${products.stockQty} <= 0 then 'out_of_stock'
  when ${products.stockQty} < ${sql.raw(String(LOW_STOCK_BELOW))} then 'low_stock' else 'in_stock' end`;

/** Declared options: the names and values a product's variants choose from. */
export const ProductOptions = Type.Array(
  Type.Object(
    {
      name: Type.String({ minLength: 1, maxLength: 50 }),
      values: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
        minItems: 1,
        maxItems: 50,
        uniqueItems: true,
      }),
    },
    { additionalProperties: false },
  ),
  { maxItems: 5, description: 'Options the variants choose from, e.g. [{"name":"Size","values":["S","M"]}]' },
);

export const productResource: Resource = defineResource({
  domain: 'product',
  entity: 'product',
  description: 'products',
  table: products,
  translations: products.translations,
  fields: {
    id: field.id(products.id),
    sku: field.text(products.sku, {
      create: 'required',
      filter: 'eq',
      search: true,
      minLength: 1,
      maxLength: 64,
    }),
    slug: field.text(products.slug, {
      create: 'optional',
      filter: 'eq',
      maxLength: 160,
      pattern: '^[a-z0-9]+(-[a-z0-9]+)*$',
      translatable: true,
      unique: true,
      description: 'Derived from the name when absent; unique (within each locale)',
    }),
    name: field.text(products.name, {
      create: 'required',
      translatable: true,
      sort: true,
      search: true,
      minLength: 1,
      maxLength: 200,
    }),
    description: field.text(products.description, {
      create: 'optional',
      search: true,
      translatable: true,
      maxLength: 20_000,
    }),
    price: {
      ...field.money(products.price, {
        create: 'required',
        filter: 'range',
        sort: true,
        description:
          'Gross price; shoppers see it lowered by a running catalog promotion (filters and sorting use the regular price)',
      }),
      readAs: shopperPrice,
    },
    salePrice: field.computed(Type.Number(), () => sql`(${salePriceSql} * 0.01)`, {
      read: 'backend',
      nullable: true,
      description: 'The price a running catalog promotion gives shoppers now; null without one',
    }),
    referencePrice: {
      ...field.money(products.referencePrice, {
        nullable: true,
        description:
          'Lowest price of the 30 days before the current price (or the running sale) took effect; null when price tracking is off',
        shownWhen: 'price_tracking_enabled',
      }),
      readAs: shopperReferencePrice,
    },
    vatRate: field.decimal(products.vatRate, {
      create: 'optional',
      max: 100,
      description: 'Percent; default setting default_vat_rate',
    }),
    taxClass: field.enum(products.taxClass, TAX_CLASSES, {
      create: 'optional',
      filter: 'eq',
      description:
        "Which of the destination country's rates applies when the setting tax_mode is destination",
    }),
    priceMin: {
      ...field.money(products.priceMin, {
        nullable: true,
        description: 'Lowest price over the active variants',
      }),
      readAs: shopperPrice,
    },
    priceMax: {
      ...field.money(products.priceMax, {
        nullable: true,
        description: 'Highest price over the active variants',
      }),
      readAs: shopperPrice,
    },
    currency: field.computed(Type.String(), (ctx) => currencySql(ctx.config), {
      description: "The shop's currency (setting currency); read-only",
    }),
    options: field.json(products.options, ProductOptions, {
      create: 'optional',
      translatable: true,
      description:
        'Options the variants choose from; in another locale the same options in the same order, named in it (a variant keeps the default names)',
    }),
    stockStatus: filterable(
      field.computed(Type.Unsafe<string>({ type: 'string', enum: [...STOCK_STATUSES] }), () => stockStatus),
      { parse: parseOneOf(STOCK_STATUSES), volatile: true },
    ),
    inStock: field.bool(products.inStock, {
      description: 'Any active variant is in stock',
      volatile: true,
      filter: 'eq',
    }),
    onSale: onSaleParam,
    option: optionParam,
    images: field.urls(products.images, { create: 'optional', maxItems: 20 }),
    media: mediaField(products.media),
    categoryId: filterable(
      field.int(products.categoryId, {
        create: 'optional',
        nullable: true,
        min: 1,
        description: 'As a filter: this category and every category below it',
      }),
      categoryFilter,
    ),
    brand: field.text(products.brand, { create: 'optional', nullable: true, filter: 'eq', maxLength: 100 }),
    weightKg: field.decimal(products.weightKg, { create: 'optional', max: 100_000 }),
    active: field.bool(products.active, { create: 'optional', filter: 'eq' }),
    inWishlist: field.computed(
      Type.Boolean(),
      (ctx) =>
        ctx.caller.kind === 'customer'
          ? // Qualified by hand: drizzle leaves columns unqualified in a one-table select.
            sql<boolean>`exists (select 1 from wishlist_item w where w.customer_id = ${CUSTOMER_ID} and w.product_id = "product"."id")`
          : sql<boolean>`false`,
      { onlyScope: 'customer', description: 'In the calling customer’s wishlist' },
    ),
    costPrice: field.money(products.costPrice, { read: 'backend', create: 'optional', nullable: true }),
    stockQty: field.int(products.stockQty, {
      read: 'backend',
      create: 'optional',
      filter: 'range',
      volatile: true,
    }),
    supplierCode: field.text(products.supplierCode, {
      read: 'backend',
      create: 'optional',
      nullable: true,
      maxLength: 100,
    }),
    adminNotes: field.text(products.adminNotes, {
      read: 'backend',
      create: 'optional',
      nullable: true,
      maxLength: 5000,
    }),
    createdAt: field.timestamp(products.createdAt, { read: 'backend', sort: true, filter: 'range' }),
    updatedAt: field.timestamp(products.updatedAt, { read: 'backend' }),
  },
  relations: {
    category: { kind: 'one', target: () => categoryResource, key: 'categoryId', read: 'public' },
    variants: { kind: 'many', target: () => variantResource, key: 'productId', read: 'public' },
  },
  read: { access: 'public' },
  write: { roles: [Role.Products] },
  storefront: () => eq(products.active, true),
  publicCache: true,
  countCache: true,
  // Shoppers' prices under the running catalog sales, from the copy the service keeps.
  keptValues: catalogSaleValues,
  search: productSearch,
  hooks: withMedia({ name: 'images', list: true }, productHooks),
  createExtras: () => ({
    variants: Type.Array(nestedVariantBody(), {
      minItems: 1,
      maxItems: 100,
      description: 'The variants of a product with options, created with it',
    }),
  }),
});
