import { and, desc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client.ts';
import { productPriceHistory, products, productVariants } from './catalog.tables.ts';

/**
 * Whose price history: a product's own price (entries without a variant) or one variant's
 * effective price (its own, or the product's while it has none).
 */
export type PriceOwner =
  | { productId: number; variantId?: undefined }
  | { productId: number; variantId: number };

function ownerWhere(owner: PriceOwner): SQL {
  return owner.variantId === undefined
    ? // biome-ignore lint/style/noNonNullAssertion: and() of two conditions is never undefined
      and(eq(productPriceHistory.productId, owner.productId), isNull(productPriceHistory.variantId))!
    : eq(productPriceHistory.variantId, owner.variantId);
}

/** The price in effect before now (the last history entry), or null for an owner without one. */
export async function currentRecordedPrice(db: Db, owner: PriceOwner): Promise<number | null> {
  const rows = await db
    .select({ price: productPriceHistory.price })
    .from(productPriceHistory)
    .where(ownerWhere(owner))
    .orderBy(desc(productPriceHistory.validFrom), desc(productPriceHistory.id))
    .limit(1);
  return rows[0]?.price ?? null;
}

/**
 * The lowest price in effect during the 30 days before now (when the new price takes effect):
 * each history entry is in effect from its valid_from until the next entry's; entries that were
 * never in effect for a moment (replaced in the same instant) do not count.
 */
export async function lowestPriceInLast30Days(db: Db, owner: PriceOwner): Promise<number | null> {
  const where =
    owner.variantId === undefined
      ? sql`product_id = ${owner.productId} and variant_id is null`
      : sql`variant_id = ${owner.variantId}`;
  const rows = await queryRows<{ price: number | null }>(
    db,
    sql`select min(price)::int as price from (
          select price, valid_from,
                 coalesce(lead(valid_from) over (order by valid_from, id), now()) as valid_to
          from product_price_history where ${where}
        ) h
        where valid_to > valid_from and valid_to > now() - interval '30 days'`,
  );
  const price = rows[0]?.price;
  return price === null || price === undefined ? null : Number(price);
}

export async function insertPriceHistory(db: Db, owner: PriceOwner, price: number): Promise<void> {
  await insertPriceHistories(db, [{ ...owner, price }]);
}

/** History entries valid from now, of several owners in one statement (a batch of new products). */
export async function insertPriceHistories(db: Db, entries: readonly (PriceOwner & { price: number })[]): Promise<void> {
  if (entries.length === 0) return;
  await db
    .insert(productPriceHistory)
    .values(entries.map((e) => ({ productId: e.productId, variantId: e.variantId ?? null, price: e.price })));
}

export async function setReferencePrice(
  db: Db,
  owner: PriceOwner,
  referencePrice: number | null,
): Promise<void> {
  if (owner.variantId === undefined) {
    await db.update(products).set({ referencePrice }).where(eq(products.id, owner.productId));
  } else {
    await db.update(productVariants).set({ referencePrice }).where(eq(productVariants.id, owner.variantId));
  }
}

export async function productSku(db: Db, productId: number): Promise<string | undefined> {
  const rows = await db
    .select({ sku: products.sku })
    .from(products)
    .where(eq(products.id, productId))
    .limit(1);
  return rows[0]?.sku;
}
