import { and, eq, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client.ts';
import { wishlistItems } from './address.tables.ts';

/**
 * Adds a product the storefront shows (active) to the customer's wishlist; an entry already
 * there is kept. Returns the entry's id and whether it was new, or null for an unknown product.
 */
export async function addToWishlist(
  db: Db,
  customerId: number,
  productId: number,
): Promise<{ id: number; created: boolean } | null> {
  const inserted = await queryRows<{ id: number }>(
    db,
    sql`insert into wishlist_item (customer_id, product_id)
        select ${customerId}, id from product where id = ${productId} and active
        on conflict (customer_id, product_id) do nothing
        returning id`,
  );
  if (inserted.length) return { id: Number(inserted[0].id), created: true };
  const existing = await findWishlistEntry(db, customerId, productId);
  return existing === undefined ? null : { id: existing, created: false };
}

/** The id of the customer's entry for the product, or undefined. */
export async function findWishlistEntry(
  db: Db,
  customerId: number,
  productId: number,
): Promise<number | undefined> {
  const rows = await db
    .select({ id: wishlistItems.id })
    .from(wishlistItems)
    .where(and(eq(wishlistItems.customerId, customerId), eq(wishlistItems.productId, productId)))
    .limit(1);
  return rows[0]?.id;
}

export async function removeFromWishlist(db: Db, customerId: number, productId: number): Promise<boolean> {
  const rows = await db
    .delete(wishlistItems)
    .where(and(eq(wishlistItems.customerId, customerId), eq(wishlistItems.productId, productId)))
    .returning({ id: wishlistItems.id });
  return rows.length > 0;
}
