import { desc, eq, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client.ts';
import { productPriceHistory, products } from './catalog.tables.ts';

/** The price in effect before now (the last history entry), or null for a product without one. */
export async function currentRecordedPrice(db: Db, productId: number): Promise<number | null> {
  const rows = await db
    .select({ price: productPriceHistory.price })
    .from(productPriceHistory)
    .where(eq(productPriceHistory.productId, productId))
    .orderBy(desc(productPriceHistory.validFrom), desc(productPriceHistory.id))
    .limit(1);
  return rows[0]?.price ?? null;
}

/**
 * The lowest price in effect during the 30 days before now (when the new price takes effect):
 * each history entry is in effect from its valid_from until the next entry's; entries that were
 * never in effect for a moment (replaced in the same instant) do not count.
 */
export async function lowestPriceInLast30Days(db: Db, productId: number): Promise<number | null> {
  const rows = await queryRows<{ price: number | null }>(
    db,
    sql`select min(price)::int as price from (
          select price, valid_from,
                 coalesce(lead(valid_from) over (order by valid_from, id), now()) as valid_to
          from product_price_history where product_id = ${productId}
        ) h
        where valid_to > valid_from and valid_to > now() - interval '30 days'`,
  );
  const price = rows[0]?.price;
  return price === null || price === undefined ? null : Number(price);
}

export async function insertPriceHistory(db: Db, productId: number, price: number): Promise<void> {
  await db.insert(productPriceHistory).values({ productId, price });
}

export async function setReferencePrice(
  db: Db,
  productId: number,
  referencePrice: number | null,
): Promise<void> {
  await db.update(products).set({ referencePrice }).where(eq(products.id, productId));
}

export async function productSkuAndCurrency(db: Db, productId: number) {
  const rows = await db
    .select({ sku: products.sku, currency: products.currency })
    .from(products)
    .where(eq(products.id, productId))
    .limit(1);
  return rows[0];
}
