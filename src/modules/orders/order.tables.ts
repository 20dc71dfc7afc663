import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { customers } from '../customers/customer.tables.ts';
import type { VatBreakdownEntry } from '../pricing/vat.ts';
import { ORDER_STATUSES } from './order-states.ts';
import type { PayWayType } from '../pricing/totals.schemas.ts';
import type { AddressJsonType } from './address.schemas.ts';
import { PAYMENT_STATUSES } from './payment-states.ts';

/** Which zone and rate priced an order's shipping (docs/shipping-and-tax.md). */
export interface OrderShippingRate {
  zoneId: number;
  zoneName: string;
  rateId: number;
}

/**
 * Placed orders ("order" is an SQL keyword, hence sales_order). Every money column and every figure in
 * the jsonb snapshots is in integer cents; the number is derived from the id, so it needs no sequence of
 * its own and can never be reused.
 */
export const salesOrders = pgTable(
  'sales_order',
  {
    id: serial('id').primaryKey(),
    number: text('number')
      .notNull()
      .generatedAlwaysAs(sql`'SO-' || case when id < 1000000 then lpad(id::text, 6, '0') else id::text end`),
    /** null for a guest's order. */
    customerId: integer('customer_id').references(() => customers.id, { onDelete: 'set null' }),
    email: text('email').notNull(),
    status: text('status', { enum: ORDER_STATUSES }).notNull().default('pending'),
    currency: text('currency').notNull(),
    /** The locale the order was placed in: its e-mails are written in it (docs/translations.md). */
    locale: text('locale'),
    total: integer('total').notNull(),
    /** Every figure of the quote the order was placed with (cents). */
    totals: jsonb('totals').notNull(),
    address: jsonb('address').$type<AddressJsonType>().notNull(),
    /** Per VAT rate: net, vat, gross in cents. */
    vatBreakdown: jsonb('vat_breakdown').$type<VatBreakdownEntry[]>().notNull(),
    couponId: integer('coupon_id'),
    couponCode: text('coupon_code'),
    pointsSpent: integer('points_spent').notNull().default(0),
    transportId: integer('transport_id'),
    transportName: text('transport_name'),
    payWay: text('pay_way').$type<PayWayType>(),
    giftPackaging: boolean('gift_packaging').notNull().default(false),
    /** The buyer's VAT id (B2B), as given at place-order. */
    vatId: text('vat_id'),
    /** The zone and rate that priced the shipping; null for a transport without rates. */
    shippingRate: jsonb('shipping_rate').$type<OrderShippingRate>(),
    /** The payment's own life cycle (payment-states.ts), beside the order's status. */
    paymentStatus: text('payment_status', { enum: PAYMENT_STATUSES }).notNull().default('pending'),
    paidAmount: integer('paid_amount').notNull().default(0),
    refundedAmount: integer('refunded_amount').notNull().default(0),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check(
      'sales_order_status_check',
      sql`${t.status} in ('pending', 'confirmed', 'shipped', 'delivered', 'cancelled')`,
    ),
    check('sales_order_total_check', sql`${t.total} >= 0`),
    uniqueIndex('sales_order_number_key').on(t.number),
    index('sales_order_customer_idx').on(t.customerId, t.id),
    index('sales_order_status_idx').on(t.status, t.id),
    // Reports and the date-filtered list read orders by time (docs/orders.md).
    index('sales_order_created_idx').on(t.createdAt),
    index('sales_order_status_created_idx').on(t.status, t.createdAt),
    check(
      'sales_order_payment_check',
      sql`${t.paymentStatus} in ('pending', 'authorized', 'paid', 'partially_refunded', 'refunded') and ${t.refundedAmount} between 0 and ${t.paidAmount}`,
    ),
  ],
);

/** A snapshot of one line as it was sold: later product edits do not change an order. */
export const salesOrderLines = pgTable(
  'sales_order_line',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => salesOrders.id, { onDelete: 'cascade' }),
    /** Kept to return stock on cancel; no foreign key, so a product can be deleted without touching history. */
    productId: integer('product_id').notNull(),
    /** The variant sold (stock goes back to it on cancel); no foreign key, like productId. */
    variantId: integer('variant_id'),
    sku: text('sku').notNull(),
    /** The variant's options as sold, {} for a product without options. */
    options: jsonb('options').$type<Record<string, string>>().notNull().default(sql`'{}'::jsonb`),
    name: text('name').notNull(),
    unitPrice: integer('unit_price').notNull(),
    qty: integer('qty').notNull(),
    vatRate: numeric('vat_rate', { precision: 5, scale: 2, mode: 'number' }).notNull(),
    lineTotal: integer('line_total').notNull(),
    /** The gift rule a free line came with; null for a bought line. */
    giftId: integer('gift_id'),
  },
  (t) => [
    index('sales_order_line_order_idx').on(t.orderId),
    check('sales_order_line_qty_check', sql`${t.qty} > 0`),
  ],
);

/** Idempotency-Key records: a retry with the same key and body replays the stored answer. */
export const idempotencyKeys = pgTable(
  'idempotency_key',
  {
    /** `customer:<id>` or `cart:<token hash>`: keys of different callers never meet. */
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    status: integer('status').notNull(),
    response: jsonb('response').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'idempotency_key_pkey', columns: [t.scope, t.key] }),
    index('idempotency_key_created_idx').on(t.createdAt),
  ],
);

export type SalesOrderRow = typeof salesOrders.$inferSelect;
export type SalesOrderLineRow = typeof salesOrderLines.$inferSelect;
