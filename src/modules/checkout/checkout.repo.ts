import { eq, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client.ts';
import type { transports } from '../shipping/shipping.tables.ts';
import { customers } from '../customers/customer.tables.ts';
import { statement } from '../../db/statements.ts';

// Reads of the catalog, promotions and customer that the quote needs; all by primary key or unique key.

export type TransportRow = typeof transports.$inferSelect;

export interface CustomerStanding {
  email: string;
  loyaltyPoints: number;
  active: boolean;
}

/**
 * The customer's e-mail and points; with `lock`, the row is locked (FOR NO KEY UPDATE, which leaves
 * foreign-key checks of other writers alone) so the balance quoted is the balance spent.
 */
const customerStanding = statement('customer_standing', (db) =>
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
