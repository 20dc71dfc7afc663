import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { timestamps, translations } from '../../db/columns.ts';
import type { MediaRef } from '../media/media-ref.ts';

// Money columns hold integer cents (gross, VAT included); the API shows them as decimals.
// Every filter and sort column of the product list has an index ending in id, so a page in
// any documented order is an index scan with LIMIT.

export const categories = pgTable(
  'category',
  {
    id: serial('id').primaryKey(),
    parentId: integer('parent_id').references((): AnyPgColumn => categories.id, { onDelete: 'restrict' }),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
    description: text('description').notNull().default(''),
    position: integer('position').notNull().default(0),
    active: boolean('active').notNull().default(true),
    translations: translations(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('category_slug_key').on(t.slug),
    index('category_translations_idx').using('gin', t.translations),
    index('category_parent_idx').on(t.parentId, t.id),
    index('category_position_idx').on(t.position, t.id),
  ],
);

export const products = pgTable(
  'product',
  {
    id: serial('id').primaryKey(),
    sku: text('sku').notNull(),
    slug: text('slug').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    /** Gross price in cents. */
    price: integer('price').notNull(),
    /** Lowest price in the 30 days before `price` took effect (EU Omnibus); maintained on each change. */
    referencePrice: integer('reference_price'),
    costPrice: integer('cost_price'),
    vatRate: numeric('vat_rate', { precision: 5, scale: 2, mode: 'number' }).notNull().default(19),
    /** Which of the destination country's rates applies under destination VAT (docs/shipping-and-tax.md). */
    taxClass: text('tax_class').notNull().default('standard'),
    /**
     * Units on hand: the sum of the variants' (kept by a trigger on product_variant). Written here for a
     * product with one variant, a trigger passes it on to that variant (drizzle/0016_catalog_variants.sql).
     */
    stockQty: integer('stock_qty').notNull().default(0),
    /** Declared options, e.g. [{name: "Size", values: ["S","M"]}]; [] for a product with one plain variant. */
    options: jsonb('options').$type<ProductOption[]>().notNull().default(sql`'[]'::jsonb`),
    /** Lowest and highest price over the active variants (trigger-maintained); null without one. */
    priceMin: integer('price_min'),
    priceMax: integer('price_max'),
    /** Any active variant in stock (trigger-maintained), so lists need no join. */
    inStock: boolean('in_stock').notNull().default(false),
    weightKg: numeric('weight_kg', { precision: 10, scale: 3, mode: 'number' }).notNull().default(0),
    categoryId: integer('category_id').references(() => categories.id, { onDelete: 'restrict' }),
    brand: text('brand'),
    images: text('images').array().notNull().default(sql`'{}'::text[]`),
    /** Uploaded images in order (the first is the main one), as reads show them (docs/media.md). */
    media: jsonb('media').$type<MediaRef[]>().notNull().default(sql`'[]'::jsonb`),
    supplierCode: text('supplier_code'),
    adminNotes: text('admin_notes'),
    active: boolean('active').notNull().default(true),
    /** Name, description and slug in the other locales (docs/translations.md). */
    translations: translations(),
    /**
     * What catalog search matches: name, brand, sku and description, then the translated texts
     * of every locale (shop_translated_text), lower-cased and without accents (shop_unaccent,
     * drizzle/0015_…), kept by the database; GIN trigram index.
     */
    searchText: text('search_text').generatedAlwaysAs(
      sql`shop_unaccent(lower(name || ' ' || coalesce(brand, '') || ' ' || sku || ' ' || description || ' ' || shop_translated_text(translations)))`,
    ),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('product_sku_key').on(t.sku),
    index('product_search_text_idx').using('gin', t.searchText.op('gin_trgm_ops')),
    uniqueIndex('product_slug_key').on(t.slug),
    index('product_translations_idx').using('gin', t.translations),
    index('product_category_idx').on(t.categoryId, t.id),
    index('product_brand_idx').on(t.brand, t.id),
    index('product_price_idx').on(t.price, t.id),
    index('product_name_idx').on(t.name, t.id),
    index('product_created_at_idx').on(t.createdAt, t.id),
    check('product_price_check', sql`${t.price} >= 0`),
    check('product_cost_price_check', sql`${t.costPrice} >= 0`),
    check('product_stock_qty_check', sql`${t.stockQty} >= 0`),
    check('product_tax_class_check', sql`${t.taxClass} in ('standard', 'reduced', 'super_reduced', 'zero')`),
  ],
);

export interface ProductOption {
  name: string;
  values: string[];
}

/**
 * What a customer buys: one per option combination, or the one plain variant of a product without
 * options (made by a trigger when the product is inserted). Stock lives here; checkout takes it with
 * a guarded UPDATE (stock_qty >= qty) and a trigger keeps the product's stock_qty, in_stock,
 * price_min and price_max in the same transaction.
 */
export const productVariants = pgTable(
  'product_variant',
  {
    /**
     * Drawn from product's id sequence (drizzle/0017_…): a plain variant has its product's id, and
     * no other variant's id is ever a product's.
     */
    id: serial('id').primaryKey(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    sku: text('sku').notNull(),
    /** Option name → value, one per option the product declares; {} for the plain variant. */
    options: jsonb('options').$type<Record<string, string>>().notNull().default(sql`'{}'::jsonb`),
    /** Gross price in cents; null means the product's price. */
    price: integer('price'),
    /** Lowest effective price of the 30 days before the current one took effect (EU Omnibus). */
    referencePrice: integer('reference_price'),
    stockQty: integer('stock_qty').notNull().default(0),
    /** null means the product's weight. */
    weightKg: numeric('weight_kg', { precision: 10, scale: 3, mode: 'number' }),
    images: text('images').array().notNull().default(sql`'{}'::text[]`),
    /** Uploaded images in order (the first is the main one), as reads show them (docs/media.md). */
    media: jsonb('media').$type<MediaRef[]>().notNull().default(sql`'[]'::jsonb`),
    position: integer('position').notNull().default(0),
    active: boolean('active').notNull().default(true),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('product_variant_sku_key').on(t.sku),
    uniqueIndex('product_variant_options_key').on(t.productId, t.options),
    index('product_variant_product_idx').on(t.productId, t.position, t.id),
    check('product_variant_price_check', sql`${t.price} >= 0`),
    check('product_variant_stock_qty_check', sql`${t.stockQty} >= 0`),
  ],
);

/** Every price a product has had and since when (EU Omnibus): written with each price change. */
export const productPriceHistory = pgTable(
  'product_price_history',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    /** null: the product's own price; else the variant's effective price (its own or the product's). */
    variantId: integer('variant_id').references(() => productVariants.id, { onDelete: 'cascade' }),
    price: integer('price').notNull(),
    validFrom: timestamp('valid_from', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('product_price_history_product_idx').on(t.productId, t.validFrom),
    index('product_price_history_variant_idx').on(t.variantId, t.validFrom),
  ],
);

export type ProductRow = typeof products.$inferSelect;
export type ProductVariantRow = typeof productVariants.$inferSelect;
