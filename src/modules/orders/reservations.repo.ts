import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client.ts';
import { productVariants } from '../catalog/catalog.tables.ts';
import { coupons } from '../promotions/promotions.tables.ts';

// What place-order takes from the shop and a cancel gives back. Every take is ONE guarded UPDATE:
// the condition and the change are a single statement, so under READ COMMITTED two orders can never
// both pass a check that only one of them may pass, and no retry loop is needed.

/**
 * Takes qty units of a variant; false when fewer are left (nothing changed). Plain SQL: it runs per
 * line of every order. A trigger moves the product's stock_qty, in_stock and price range with it.
 */
export async function takeStock(db: Db, variantId: number, qty: number): Promise<boolean> {
  const rows = await queryRows<{ id: number }>(
    db,
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

/**
 * Gives units back to a variant. A line from before variants names only its product, whose one
 * variant has the product's id (drizzle/0017_…), so `variantId ?? productId` is the variant.
 */
export async function returnStock(db: Db, productId: number, qty: number, variantId: number | null = null) {
  await db
    .update(productVariants)
    .set({ stockQty: sql`${productVariants.stockQty} + ${qty}` })
    .where(eq(productVariants.id, variantId ?? productId));
}

/** A stock movement per variant, in the lock order of place-order: product id, then variant id. */
export function unitsByVariant(
  lines: readonly { productId: number; variantId: number | null; qty: number }[],
): { productId: number; variantId: number; qty: number }[] {
  const units = new Map<number, { productId: number; variantId: number; qty: number }>();
  for (const l of lines) {
    const variantId = l.variantId ?? l.productId;
    const entry = units.get(variantId);
    if (entry) entry.qty += l.qty;
    else units.set(variantId, { productId: l.productId, variantId, qty: l.qty });
  }
  return [...units.values()].sort((a, b) => a.productId - b.productId || a.variantId - b.variantId);
}

/** Gives back the units of order lines (a cancel, a return with restock). */
export async function returnLinesStock(
  db: Db,
  lines: readonly { productId: number; variantId: number | null; qty: number }[],
): Promise<void> {
  for (const u of unitsByVariant(lines)) await returnStock(db, u.productId, u.qty, u.variantId);
}

/** Counts one use; false when the usage limit is reached. */
export async function takeCouponUse(db: Db, couponId: number): Promise<boolean> {
  const rows = await db
    .update(coupons)
    .set({ usedCount: sql`${coupons.usedCount} + 1` })
    .where(
      and(
        eq(coupons.id, couponId),
        or(isNull(coupons.usageLimit), lt(coupons.usedCount, coupons.usageLimit)),
      ),
    )
    .returning({ id: coupons.id });
  return rows.length === 1;
}

export async function returnCouponUse(db: Db, couponId: number): Promise<void> {
  await db
    .update(coupons)
    .set({ usedCount: sql`${coupons.usedCount} - 1` })
    .where(and(eq(coupons.id, couponId), gt(coupons.usedCount, 0)));
}
