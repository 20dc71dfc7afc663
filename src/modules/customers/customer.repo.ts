import { and, eq, gte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { type CustomerRow, customers } from './customer.tables.ts';

// The writes of the customer row other modules need: registration and passwords (auth), the
// loyalty balance (loyalty, checkout, orders, fulfilment).

export interface NewCustomer {
  email: string;
  passwordHash: string;
  firstName: string;
  lastName: string;
  phone: string | null;
  newsletter: boolean;
}

export async function insertCustomer(db: Db, values: NewCustomer): Promise<CustomerRow> {
  const [row] = await db.insert(customers).values(values).returning();
  return row;
}

export async function setCustomerPassword(db: Db, id: number, passwordHash: string): Promise<void> {
  await db.update(customers).set({ passwordHash, updatedAt: sql`now()` }).where(eq(customers.id, id));
}

/**
 * Adds delta (negative to spend) to a loyalty balance in one guarded UPDATE that never lets it go
 * below 0; the new balance, or undefined when the customer is unknown or the points are not there.
 * A sum past the int4 column fails the statement (SQLSTATE 22003, answered 422 by handleError).
 */
export async function changeLoyaltyPoints(
  db: Db,
  customerId: number,
  delta: number,
): Promise<number | undefined> {
  const rows = await db
    .update(customers)
    .set({ loyaltyPoints: sql`${customers.loyaltyPoints} + ${delta}`, updatedAt: sql`now()` })
    .where(and(eq(customers.id, customerId), gte(sql`${customers.loyaltyPoints} + ${delta}`, 0)))
    .returning({ balance: customers.loyaltyPoints });
  return rows[0]?.balance;
}
