import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client.ts';
import { AppError } from '../../http/errors.ts';

// Hard caps on what one customer account may accumulate, so a script cannot grow one account's
// rows without bound. Each check locks the customer row first (FOR NO KEY UPDATE: foreign-key
// checks of other writers are not blocked), so concurrent writes for one customer queue there and
// each counts the rows committed before it: 30 concurrent creates leave exactly the cap.

export const MAX_ADDRESSES = 20;
export const MAX_WISHLIST_ENTRIES = 500;

/** Locks the customer row for the rest of the transaction; false when there is no such customer. */
export async function lockCustomer(db: Db, customerId: number): Promise<boolean> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`select id from customer where id = ${customerId} for no key update`,
  );
  return rows.length === 1;
}

function limitReached(what: string, max: number): AppError {
  return new AppError('LIMIT_REACHED', `a customer has at most ${max} ${what}; remove one first`);
}

async function countOf(db: Db, table: 'address' | 'wishlist_item', customerId: number): Promise<number> {
  const rows = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from ${sql.identifier(table)} where customer_id = ${customerId}`,
  );
  return Number(rows[0]?.n ?? 0);
}

/**
 * Inside the transaction that inserts an address: 422 LIMIT_REACHED when the customer has 20.
 * An unknown customer passes: the insert's foreign key refuses it as before.
 */
export async function assertAddressRoom(db: Db, customerId: number): Promise<void> {
  if (!(await lockCustomer(db, customerId))) return;
  if ((await countOf(db, 'address', customerId)) >= MAX_ADDRESSES)
    throw limitReached('addresses', MAX_ADDRESSES);
}

/** Inside the transaction that adds a wishlist entry, after lockCustomer: 422 when 500 are there. */
export async function assertWishlistRoom(db: Db, customerId: number): Promise<void> {
  if ((await countOf(db, 'wishlist_item', customerId)) >= MAX_WISHLIST_ENTRIES)
    throw limitReached('wishlist entries', MAX_WISHLIST_ENTRIES);
}
