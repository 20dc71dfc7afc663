import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { timestamps, translations } from '../../db/columns.ts';

/**
 * Coupons. `value` is stored in hundredths of its unit, as an integer: cents for a fixed coupon
 * (500 = 5.00 off), hundredths of a percent for a percent coupon (1250 = 12.5 %). The API shows
 * value / 100 for both. Codes are unique case-insensitively.
 */
export const coupons = pgTable(
  'coupon',
  {
    id: serial('id').primaryKey(),
    code: text('code').notNull(),
    type: text('type', { enum: ['percent', 'fixed'] }).notNull(),
    value: integer('value').notNull(),
    minSubtotal: integer('min_subtotal').notNull().default(0),
    startsAt: timestamp('starts_at', { withTimezone: true }),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    usageLimit: integer('usage_limit'),
    perCustomerLimit: integer('per_customer_limit'),
    /** Redemptions so far; checkout increments it with a guarded UPDATE. */
    usedCount: integer('used_count').notNull().default(0),
    active: boolean('active').notNull().default(true),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('coupon_code_key').on(sql`lower(${t.code})`),
    check('coupon_type_check', sql`${t.type} in ('percent', 'fixed')`),
    check('coupon_value_check', sql`${t.value} > 0 and (${t.type} = 'fixed' or ${t.value} <= 10000)`),
    check('coupon_used_count_check', sql`${t.usedCount} >= 0`),
  ],
);

/** Gift rules: with a goods subtotal of at least minSubtotal, up to maxQty of an eligible product free. */
export const gifts = pgTable(
  'gift',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull().default(''),
    productIds: integer('product_ids').array().notNull(),
    minSubtotal: integer('min_subtotal').notNull().default(0),
    maxQty: integer('max_qty').notNull().default(1),
    active: boolean('active').notNull().default(true),
    translations: translations(),
    ...timestamps,
  },
  (t) => [check('gift_max_qty_check', sql`${t.maxQty} >= 1`)],
);

/**
 * One use of a coupon by one order; counted per customer (or per guest e-mail) for perCustomerLimit.
 * Deleted when the order is cancelled, together with the decrement of coupon.used_count.
 */
export const couponRedemptions = pgTable(
  'coupon_redemption',
  {
    id: serial('id').primaryKey(),
    couponId: integer('coupon_id')
      .notNull()
      .references(() => coupons.id, { onDelete: 'cascade' }),
    /** The order (a plain id: promotions sit below orders and customers, so no foreign key). */
    orderId: integer('order_id').notNull(),
    /** The ordering customer, null for a guest (a plain id, as orderId). */
    customerId: integer('customer_id'),
    /** Lower-cased e-mail of the order: how a guest's uses are counted. */
    email: text('email').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('coupon_redemption_order_key').on(t.orderId),
    index('coupon_redemption_customer_idx').on(t.couponId, t.customerId),
    index('coupon_redemption_email_idx').on(t.couponId, t.email),
  ],
);
