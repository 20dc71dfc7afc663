import { and, eq, gt, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { statement } from '../../db/statements.ts';
import { couponRedemptions, coupons, gifts } from './promotions.tables.ts';

export type CouponRow = typeof coupons.$inferSelect;
export type GiftRuleRow = typeof gifts.$inferSelect;

/** Codes compare case-insensitively, like the unique index on lower(code). */
const couponByCode = statement('coupon_by_code', (db) =>
  db
    .select()
    .from(coupons)
    .where(sql`lower(${coupons.code}) = lower(${sql.placeholder('code')})`)
    .limit(1),
);

export async function findCouponByCode(db: Db, code: string): Promise<CouponRow | undefined> {
  return (await couponByCode(db, { code }))[0];
}

export async function findGiftRules(db: Db, ids: readonly number[]): Promise<GiftRuleRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(gifts)
    .where(inArray(gifts.id, [...ids]));
}

/**
 * How often a buyer has redeemed a coupon, for its per-customer limit. A buyer is an account together
 * with its e-mail address: a customer's count holds the account's redemptions and every guest
 * redemption made with the account's current e-mail; a guest's (by e-mail) holds every redemption
 * made with that e-mail and those of the account registered under it. So guest-then-customer and
 * customer-then-guest count alike. When an account's e-mail changes, the guest redemptions of the
 * old address become the account's (drizzle/0025), so neither the account nor a guest with the old
 * address gets them back. E-mails compare lower-cased (both tables store them so).
 */
export async function countRedemptions(
  db: Db,
  couponId: number,
  by: { customerId: number } | { email: string },
): Promise<number> {
  const r = couponRedemptions;
  const who =
    'customerId' in by
      ? sql`(${r.customerId} = ${by.customerId} or (${r.customerId} is null and ${r.email} =
          (select lower(c.email) from customer c where c.id = ${by.customerId})))`
      : sql`(${r.email} = ${by.email.toLowerCase()} or ${r.customerId} =
          (select c.id from customer c where lower(c.email) = ${by.email.toLowerCase()}))`;
  const rows = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(r)
    .where(and(eq(r.couponId, couponId), who));
  return rows[0]?.n ?? 0;
}

/** Counts one use of a coupon (one guarded UPDATE, which also locks its row); false when its limit is reached. */
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

/** Gives back one use of a coupon (a cancelled order). */
export async function releaseCouponUse(db: Db, couponId: number): Promise<void> {
  await db
    .update(coupons)
    .set({ usedCount: sql`${coupons.usedCount} - 1` })
    .where(and(eq(coupons.id, couponId), gt(coupons.usedCount, 0)));
}

/** Records that an order redeemed a coupon (what per-customer limits count); e-mails are kept lower-cased. */
export async function insertRedemption(
  db: Db,
  r: { couponId: number; orderId: number; customerId: number | null; email: string },
): Promise<void> {
  await db.insert(couponRedemptions).values({ ...r, email: r.email.toLowerCase() });
}

/** Forgets an order's redemption (a cancelled order no longer counts against the buyer's limit). */
export async function deleteRedemption(db: Db, orderId: number): Promise<void> {
  await db.delete(couponRedemptions).where(eq(couponRedemptions.orderId, orderId));
}
