import { Type } from '@sinclair/typebox';
import { eq, sql } from 'drizzle-orm';
import { CUSTOMER_ID, defineResource, field, type Resource, WEB_URL } from '../../resources/index.ts';
import { Role } from '../../http/roles.ts';
import { products } from './catalog.tables.ts';
import { categoryResource } from './category.resource.ts';
import { productHooks } from './product.service.ts';

/** Fewer units than this on hand reads as low stock to the storefront. */
export const LOW_STOCK_BELOW = 5;

const stockStatus = sql<string>`case when ${products.stockQty} <= 0 then 'out_of_stock'
  when ${products.stockQty} < ${sql.raw(String(LOW_STOCK_BELOW))} then 'low_stock' else 'in_stock' end`;

export const productResource: Resource = defineResource({
  domain: 'product',
  entity: 'product',
  description: 'products',
  table: products,
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
      description: 'Derived from the name when absent; unique',
    }),
    name: field.text(products.name, {
      create: 'required',
      sort: true,
      search: true,
      minLength: 1,
      maxLength: 200,
    }),
    description: field.text(products.description, { create: 'optional', search: true, maxLength: 20_000 }),
    price: field.money(products.price, {
      create: 'required',
      filter: 'range',
      sort: true,
      description: 'Gross price',
    }),
    referencePrice: field.money(products.referencePrice, {
      nullable: true,
      description:
        'Lowest price of the 30 days before the current price took effect; null when price tracking is off',
      shownWhen: 'price_tracking_enabled',
    }),
    vatRate: field.decimal(products.vatRate, {
      create: 'optional',
      max: 100,
      description: 'Percent; default setting default_vat_rate',
    }),
    currency: field.text(products.currency, { create: 'optional', pattern: '^[A-Z]{3}$', maxLength: 3 }),
    stockStatus: field.computed(
      Type.Unsafe<string>({ type: 'string', enum: ['in_stock', 'low_stock', 'out_of_stock'] }),
      () => stockStatus,
    ),
    inStock: field.computed(Type.Boolean(), () => sql<boolean>`${products.stockQty} > 0`),
    images: field.textArray(products.images, {
      create: 'optional',
      format: 'uri',
      pattern: WEB_URL,
      maxItems: 20,
    }),
    categoryId: field.int(products.categoryId, { create: 'optional', nullable: true, filter: 'eq', min: 1 }),
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
  },
  read: { access: 'public' },
  write: { roles: [Role.Products] },
  storefront: () => eq(products.active, true),
  publicCache: true,
  usesSettings: true,
  countCache: true,
  hooks: productHooks,
});
