import { sql } from 'drizzle-orm';
import { bigserial, check, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { customers } from '../customers/customer.tables.ts';

export const LEDGER_REASONS = ['earned', 'redeemed', 'returned', 'admin_adjustment'] as const;
export type LedgerReason = (typeof LEDGER_REASONS)[number];

/**
 * Every change of a customer's loyalty points, written in the transaction that changes
 * customer.loyalty_points, so the ledger of a customer sums to the balance it explains.
 */
export const loyaltyLedger = pgTable(
  'loyalty_ledger',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    delta: integer('delta').notNull(),
    reason: text('reason', { enum: LEDGER_REASONS }).notNull(),
    /** The order the change came from (a plain id: loyalty sits below orders, so no foreign key). */
    orderId: integer('order_id'),
    note: text('note'),
    /** Who made an admin adjustment (the token subject). */
    actor: text('actor'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('loyalty_ledger_customer_idx').on(t.customerId, t.id),
    // The loyalty report sums the ledger by period (src/modules/reports).
    index('loyalty_ledger_created_idx').on(t.createdAt),
    check(
      'loyalty_ledger_reason_check',
      sql`${t.reason} in ('earned', 'redeemed', 'returned', 'admin_adjustment')`,
    ),
    check('loyalty_ledger_delta_check', sql`${t.delta} <> 0`),
  ],
);
