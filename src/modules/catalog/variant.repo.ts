import { asc, eq, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client.ts';
import { statement } from '../../db/statements.ts';
import type { MediaRef } from '../media/media-ref.ts';
import { type ProductOption, products, productVariants } from './catalog.tables.ts';

/** A new variant as the product's create body gives it (price in cents). */
export interface NewVariant {
  sku: string;
  options: Record<string, string>;
  price?: number | null;
  stockQty?: number;
  weightKg?: number | null;
  images?: string[];
  media?: MediaRef[];
  position?: number;
  active?: boolean;
}

export async function insertVariants(db: Db, productId: number, variants: readonly NewVariant[]) {
  return insertVariantsOf(db, [{ productId, variants }]);
}

/** The new variants of several new products in one statement (a batch of creates). */
export async function insertVariantsOf(db: Db, of: readonly { productId: number; variants: readonly NewVariant[] }[]) {
  const rows = of.flatMap(({ productId, variants }) => variants.map((v, i) => ({ ...v, position: v.position ?? i, productId })));
  if (rows.length === 0) return [];
  return db.insert(productVariants).values(rows).returning({ id: productVariants.id, price: productVariants.price });
}

/**
 * The product's variants, locked FOR UPDATE: a product write that moves stock locks them before the
 * product row (the trigger then locks the product), the order checkout's guarded updates take too.
 */
export async function lockVariantsOf(
  db: Db,
  productId: number,
): Promise<{ id: number; options: Record<string, string>; sku: string }[]> {
  return queryRows(
    db,
    sql`select id, options, sku from product_variant where product_id = ${productId} order by id for update`,
  );
}

export async function variantsOf(db: Db, productId: number) {
  return db
    .select({ id: productVariants.id, price: productVariants.price })
    .from(productVariants)
    .where(eq(productVariants.productId, productId))
    .orderBy(asc(productVariants.id));
}

export async function productOptionsAndPrice(
  db: Db,
  productId: number,
): Promise<{ options: ProductOption[]; price: number } | undefined> {
  const rows = await db
    .select({ options: products.options, price: products.price })
    .from(products)
    .where(eq(products.id, productId))
    .limit(1);
  return rows[0];
}

/** A variant's product, its own price and the product's (its effective price is the first non-null). */
export async function variantPricing(
  db: Db,
  variantId: number,
): Promise<
  | { productId: number; sku: string; price: number | null; productPrice: number; options: ProductOption[] }
  | undefined
> {
  const rows = await db
    .select({
      productId: productVariants.productId,
      sku: productVariants.sku,
      price: productVariants.price,
      productPrice: products.price,
      options: products.options,
    })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(eq(productVariants.id, variantId))
    .limit(1);
  return rows[0];
}

/** What the cart, the quote and place-order need of a variant: its live figures and its product's. */
export interface VariantRef {
  variantId: number;
  productId: number;
  sku: string;
  name: string;
  options: Record<string, string>;
  /** Effective gross price in cents (the variant's, else the product's). */
  price: number;
  vatRate: number;
  /** Effective weight (the variant's, else the product's). */
  weightKg: number;
  /** The variant and its product are both active. */
  active: boolean;
  stockQty: number;
  /** How many variants the product has: a product id names a variant only when it has one. */
  variantCount: number;
}

const refColumns = sql`v.id as "variantId", v.product_id as "productId", v.sku, p.name, v.options,
  coalesce(v.price, p.price) as price, p.vat_rate::float8 as "vatRate",
  coalesce(v.weight_kg, p.weight_kg)::float8 as "weightKg", (v.active and p.active) as active,
  v.stock_qty as "stockQty"`;

const variantById = statement('variant_ref', (db) =>
  db
    .select({
      ref: sql<VariantRef>`json_build_object(
        'variantId', v.id, 'productId', v.product_id, 'sku', v.sku, 'name', p.name, 'options', v.options,
        'price', coalesce(v.price, p.price), 'vatRate', p.vat_rate::float8,
        'weightKg', coalesce(v.weight_kg, p.weight_kg)::float8, 'active', v.active and p.active,
        'stockQty', v.stock_qty, 'variantCount', 1)`,
    })
    .from(sql`product_variant v join product p on p.id = v.product_id`)
    .where(sql`v.id = ${sql.placeholder('id')}`),
);

const variantOfProduct = statement('variant_ref_of_product', (db) =>
  db
    .select({
      ref: sql<VariantRef>`json_build_object(
        'variantId', v.id, 'productId', v.product_id, 'sku', v.sku, 'name', p.name, 'options', v.options,
        'price', coalesce(v.price, p.price), 'vatRate', p.vat_rate::float8,
        'weightKg', coalesce(v.weight_kg, p.weight_kg)::float8, 'active', v.active and p.active,
        'stockQty', v.stock_qty, 'variantCount', count(*) over ())`,
    })
    .from(sql`product_variant v join product p on p.id = v.product_id`)
    .where(sql`v.product_id = ${sql.placeholder('id')}`)
    .limit(2),
);

/** One variant by id, with its product's name, VAT rate and the effective price and weight. */
export async function findVariant(db: Db, variantId: number): Promise<VariantRef | undefined> {
  return (await variantById(db, { id: variantId }))[0]?.ref;
}

/** The variant of a product with exactly one (undefined without any; variantCount > 1 when it has several). */
export async function findOnlyVariant(db: Db, productId: number): Promise<VariantRef | undefined> {
  return (await variantOfProduct(db, { id: productId }))[0]?.ref;
}

/** Several variants by id (gifts). */
export async function findVariants(db: Db, ids: readonly number[]): Promise<VariantRef[]> {
  if (ids.length === 0) return [];
  return queryRows<VariantRef>(
    db,
    sql`select ${refColumns}, 1 as "variantCount" from product_variant v join product p on p.id = v.product_id
        where v.id = any(${sql.param([...ids])}::int[])`,
  );
}

/**
 * One variant of each product (its first) with the product's variantCount: a gift named by product
 * id gives that variant when it is the only one.
 */
export async function findFirstVariantsOf(db: Db, productIds: readonly number[]): Promise<VariantRef[]> {
  if (productIds.length === 0) return [];
  return queryRows<VariantRef>(
    db,
    sql`select * from (
          select ${refColumns}, (count(*) over (partition by v.product_id))::int as "variantCount",
                 row_number() over (partition by v.product_id order by v.id) as n
          from product_variant v join product p on p.id = v.product_id
          where v.product_id = any(${sql.param([...productIds])}::int[])) r
        where n = 1`,
  );
}
