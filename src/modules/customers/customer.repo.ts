import { and, eq, gte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { type CustomerRow, customerEmailVerification, customers } from './customer.tables.ts';

// The writes of the customer row other modules need: registration, profile, passwords and the
// e-mail verification (auth), the loyalty balance (loyalty, checkout, orders, fulfilment).

export interface NewCustomer {
  email: string;
  passwordHash: string;
  firstName: string;
  lastName: string;
  phone: string | null;
  newsletter: boolean;
  locale?: string | null;
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

export type ProfileValues = Partial<
  Pick<CustomerRow, 'email' | 'firstName' | 'lastName' | 'phone' | 'newsletter' | 'locale'>
>;

/** The customer's own profile change (the unique e-mail index decides races). */
export async function updateCustomerProfile(db: Db, id: number, values: ProfileValues): Promise<void> {
  await db
    .update(customers)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(customers.id, id));
}

/** The address waits for confirmation again (or for the first time). */
export async function awaitEmailVerification(db: Db, customerId: number): Promise<void> {
  await db
    .insert(customerEmailVerification)
    .values({ customerId })
    .onConflictDoUpdate({ target: customerEmailVerification.customerId, set: { verifiedAt: null } });
}

export async function markEmailVerified(db: Db, customerId: number): Promise<void> {
  await db
    .update(customerEmailVerification)
    .set({ verifiedAt: sql`now()` })
    .where(eq(customerEmailVerification.customerId, customerId));
}
