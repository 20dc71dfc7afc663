import { and, eq, inArray, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client.ts';
import { products } from '../catalog/catalog.tables.ts';
import { coupons, gifts } from '../catalog/promotions.tables.ts';
import type { transports } from '../catalog/shipping.tables.ts';
import { customers } from '../customers/customer.tables.ts';
import { couponRedemptions } from '../orders/order.tables.ts';
import { reusableQuery } from '../../db/reusable-query.ts';

// Reads of the catalog, promotions and customer that the quote needs; all by primary key or unique key.

export interface ProductRef {
  id: number;
  sku: string;
  name: string;
  price: number;
  vatRate: number;
  weightKg: number;
  active: boolean;
}

export type TransportRow = typeof transports.$inferSelect;
export type CouponRow = typeof coupons.$inferSelect;
export type GiftRuleRow = typeof gifts.$inferSelect;

const productRef = {
  id: products.id,
  sku: products.sku,
  name: products.name,
  price: products.price,
  vatRate: products.vatRate,
  weightKg: products.weightKg,
  active: products.active,
};

const productById = reusableQuery('product_ref', (db) =>
  db
    .select(productRef)
    .from(products)
    .where(eq(products.id, sql.placeholder('id')))
    .limit(1),
);

export async function findProduct(db: Db, id: number): Promise<ProductRef | undefined> {
  return (await productById(db, { id }))[0];
}

export async function findProducts(db: Db, ids: readonly number[]): Promise<ProductRef[]> {
  if (ids.length === 0) return [];
  return db
    .select(productRef)
    .from(products)
    .where(inArray(products.id, [...ids]));
}

/** Codes compare case-insensitively, like the unique index on lower(code). */
const couponByCode = reusableQuery('coupon_by_code', (db) =>
  db
    .select()
    .from(coupons)
    .where(sql`lower(${coupons.code}) = lower(${sql.placeholder('code')})`)
    .limit(1),
);

export async function findCouponByCode(db: Db, code: string): Promise<CouponRow | undefined> {
  return (await couponByCode(db, { code }))[0];
}

/** How often a customer (by id) or a guest (by e-mail) has redeemed a coupon. */
export async function countRedemptions(
  db: Db,
  couponId: number,
  by: { customerId: number } | { email: string },
): Promise<number> {
  const who =
    'customerId' in by
      ? eq(couponRedemptions.customerId, by.customerId)
      : eq(couponRedemptions.email, by.email.toLowerCase());
  const rows = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(couponRedemptions)
    .where(and(eq(couponRedemptions.couponId, couponId), who));
  return rows[0]?.n ?? 0;
}

export async function findGiftRules(db: Db, ids: readonly number[]): Promise<GiftRuleRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(gifts)
    .where(inArray(gifts.id, [...ids]));
}

export interface CustomerStanding {
  email: string;
  loyaltyPoints: number;
  active: boolean;
}

/**
 * The customer's e-mail and points; with `lock`, the row is locked (FOR NO KEY UPDATE, which leaves
 * foreign-key checks of other writers alone) so the balance quoted is the balance spent.
 */
const customerStanding = reusableQuery('customer_standing', (db) =>
  db
    .select({ email: customers.email, loyaltyPoints: customers.loyaltyPoints, active: customers.active })
    .from(customers)
    .where(eq(customers.id, sql.placeholder('id')))
    .limit(1),
);

export async function findCustomerStanding(
  db: Db,
  id: number,
  lock = false,
): Promise<CustomerStanding | undefined> {
  if (!lock) return (await customerStanding(db, { id }))[0];
  const rows = await queryRows<CustomerStanding>(
    db,
    sql`select email, loyalty_points as "loyaltyPoints", active from customer where id = ${id} for no key update`,
  );
  return rows[0];
}
