import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client.ts';
import { products } from '../catalog/catalog.tables.ts';
import { coupons } from '../catalog/promotions.tables.ts';

// What place-order takes from the shop and a cancel gives back. Every take is ONE guarded UPDATE:
// the condition and the change are a single statement, so under READ COMMITTED two orders can never
// both pass a check that only one of them may pass, and no retry loop is needed.

/** Takes qty units; false when fewer are left (nothing changed). Plain SQL: it runs per line of every order. */
export async function takeStock(db: Db, productId: number, qty: number): Promise<boolean> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`update product set stock_qty = stock_qty - ${qty} where id = ${productId} and stock_qty >= ${qty} returning id`,
  );
  return rows.length === 1;
}

export async function returnStock(db: Db, productId: number, qty: number): Promise<void> {
  await db
    .update(products)
    .set({ stockQty: sql`${products.stockQty} + ${qty}` })
    .where(eq(products.id, productId));
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
