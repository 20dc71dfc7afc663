import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { salesOrders } from './order.tables.ts';

// What happens to an order after place-order (docs/orders.md): its status history, shipments and
// returns. Money in integer cents; `actor` is an admin's token subject, `customer:<id>` or `guest`.

/** One row per status move, with who made it and why; the first move (→ pending) is the order itself. */
export const orderStatusChanges = pgTable(
  'order_status_change',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => salesOrders.id, { onDelete: 'cascade' }),
    fromStatus: text('from_status').notNull(),
    toStatus: text('to_status').notNull(),
    reason: text('reason'),
    actor: text('actor').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('order_status_change_order_idx').on(t.orderId, t.id)],
);

export const shipments = pgTable(
  'shipment',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => salesOrders.id, { onDelete: 'cascade' }),
    carrier: text('carrier').notNull(),
    trackingNumber: text('tracking_number').notNull(),
    trackingUrl: text('tracking_url'),
    actor: text('actor').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('shipment_order_idx').on(t.orderId, t.id)],
);

/** A return: the money and points it gave back, whether stock came back. */
export const orderReturns = pgTable(
  'order_return',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => salesOrders.id, { onDelete: 'cascade' }),
    amount: integer('amount').notNull(),
    points: integer('points').notNull(),
    restock: boolean('restock').notNull(),
    reason: text('reason'),
    actor: text('actor').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('order_return_order_idx').on(t.orderId, t.id),
    index('order_return_created_idx').on(t.createdAt),
    check('order_return_amount_check', sql`${t.amount} >= 0 and ${t.points} >= 0`),
  ],
);

export const orderReturnLines = pgTable(
  'order_return_line',
  {
    returnId: integer('return_id')
      .notNull()
      .references(() => orderReturns.id, { onDelete: 'cascade' }),
    /** The sales_order_line returned (same order; checked by the service). */
    orderLineId: integer('order_line_id').notNull(),
    qty: integer('qty').notNull(),
    amount: integer('amount').notNull(),
    points: integer('points').notNull(),
  },
  (t) => [
    primaryKey({ name: 'order_return_line_pkey', columns: [t.returnId, t.orderLineId] }),
    index('order_return_line_line_idx').on(t.orderLineId),
    check('order_return_line_qty_check', sql`${t.qty} > 0`),
  ],
);

/**
 * Each order's VAT breakdown as rows (one per rate), with the order's time and whether it still
 * counts (not cancelled): the sales report sums them over an index instead of unpacking every
 * order's JSON. Written only by the triggers of drizzle/0019 (on insert of an order; `counted` goes
 * false when the order is cancelled), never by the service.
 */
export const salesOrderVat = pgTable(
  'sales_order_vat',
  {
    orderId: integer('order_id')
      .notNull()
      .references(() => salesOrders.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    rate: numeric('rate', { precision: 5, scale: 2, mode: 'number' }).notNull(),
    net: integer('net').notNull(),
    vat: integer('vat').notNull(),
    gross: integer('gross').notNull(),
    counted: boolean('counted').notNull().default(true),
    /** The delivery country (VAT per rate and country, docs/shipping-and-tax.md). */
    country: text('country').notNull().default(''),
  },
  (t) => [
    primaryKey({ name: 'sales_order_vat_pkey', columns: [t.orderId, t.rate] }),
    index('sales_order_vat_created_idx').on(t.createdAt, t.rate, t.net, t.vat, t.gross, t.counted, t.country),
  ],
);

/**
 * Each order's figures the sales report sums, as plain integers beside its time and whether it
 * still counts: kept by the same triggers as sales_order_vat (drizzle/0021), read from the index
 * alone, so the report's cost does not grow with the size of the orders' JSON.
 */
export const salesOrderFigures = pgTable(
  'sales_order_figures',
  {
    orderId: integer('order_id')
      .primaryKey()
      .references(() => salesOrders.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    counted: boolean('counted').notNull(),
    total: integer('total').notNull(),
    items: integer('items').notNull(),
    discounts: integer('discounts').notNull(),
    shipping: integer('shipping').notNull(),
    delivery: integer('delivery').notNull(),
    giftPackaging: integer('gift_packaging').notNull(),
    pointsCash: integer('points_cash').notNull(),
  },
  (t) => [
    index('sales_order_figures_created_idx').on(
      t.createdAt,
      t.counted,
      t.total,
      t.items,
      t.discounts,
      t.shipping,
      t.delivery,
      t.giftPackaging,
      t.pointsCash,
    ),
  ],
);

export type OrderStatusChangeRow = typeof orderStatusChanges.$inferSelect;
export type ShipmentRow = typeof shipments.$inferSelect;
export type OrderReturnRow = typeof orderReturns.$inferSelect;
