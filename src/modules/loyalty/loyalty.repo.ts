import { count, desc, eq, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { customers } from '../customers/customer.tables.ts';
import { type LedgerReason, loyaltyLedger } from './loyalty.tables.ts';

export type LedgerRow = typeof loyaltyLedger.$inferSelect;

export interface LedgerEntry {
  customerId: number;
  delta: number;
  reason: LedgerReason;
  orderId?: number | null;
  note?: string | null;
  actor?: string | null;
}

export async function insertLedgerEntry(db: Db, entry: LedgerEntry): Promise<LedgerRow> {
  const [row] = await db.insert(loyaltyLedger).values(entry).returning();
  return row;
}

export async function customerExists(db: Db, customerId: number): Promise<boolean> {
  const rows = await db
    .select({ id: customers.id })
    .from(customers)
    .where(eq(customers.id, customerId))
    .limit(1);
  return rows.length === 1;
}

/** One page of ledger rows, newest first, with the total; all customers' when customerId is undefined. */
export async function pageLedger(
  db: Db,
  page: { customerId?: number; limit: number; offset: number },
): Promise<{ rows: LedgerRow[]; total: number }> {
  const where: SQL | undefined =
    page.customerId === undefined ? undefined : eq(loyaltyLedger.customerId, page.customerId);
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(loyaltyLedger)
      .where(where)
      .orderBy(desc(loyaltyLedger.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ total: count() }).from(loyaltyLedger).where(where),
  ]);
  return { rows, total: counted.total };
}
