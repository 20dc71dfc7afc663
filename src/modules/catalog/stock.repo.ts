import { eq, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client.ts';
import { productVariants } from './catalog.tables.ts';
import { preparedRows } from '../../db/statements.ts';
import { unitsByVariant } from './stock.ts';

// What an order takes from the shop's stock and a cancel or a return gives back. A take is ONE
// guarded UPDATE: the condition and the change are a single statement, so under READ COMMITTED two
// orders can never both pass a check that only one of them may pass, and no retry loop is needed.

/**
 * Takes qty units of a variant; false when fewer are left (nothing changed). Plain SQL: it runs per
 * line of every order. A trigger moves the product's stock_qty, in_stock and price range with it.
 */
export async function takeStock(db: Db, variantId: number, qty: number): Promise<boolean> {
  const rows = await preparedRows<{ id: number }>(
    db,
    'stock_take',
    sql`update product_variant set stock_qty = stock_qty - ${qty} where id = ${variantId} and stock_qty >= ${qty} returning id`,
  );
  return rows.length === 1;
}

/** Units of a variant on hand now (0 when it is gone): what a refused order says is there. */
export async function stockOnHand(db: Db, variantId: number): Promise<number> {
  const rows = await queryRows<{ qty: number }>(
    db,
    sql`select stock_qty as qty from product_variant where id = ${variantId}`,
  );
  return rows[0]?.qty ?? 0;
}

/** Gives units back to a variant. */
export async function releaseStock(db: Db, variantId: number, qty: number): Promise<void> {
  await db
    .update(productVariants)
    .set({ stockQty: sql`${productVariants.stockQty} + ${qty}` })
    .where(eq(productVariants.id, variantId));
}

/** Gives back the units of order lines (a cancel, a return with restock), in the lock order of takes. */
export async function releaseLinesStock(
  db: Db,
  lines: readonly { productId: number; variantId: number | null; qty: number }[],
): Promise<void> {
  for (const u of unitsByVariant(lines)) await releaseStock(db, u.variantId, u.qty);
}
