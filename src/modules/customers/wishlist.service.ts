import type { Db } from '../../db/client.ts';
import { AppError } from '../../http/errors.ts';
import { assertWishlistRoom, lockCustomer } from './customer-caps.ts';
import { addToWishlist, findWishlistEntry, removeFromWishlist } from './wishlist.repo.ts';

/**
 * Adds an available product to the customer's wishlist; returns the entry id and whether it was
 * new. An unknown or hidden product is 422, a 501st entry 422 LIMIT_REACHED (an entry already
 * there is answered as it is, even at the cap); a token whose account is gone is 401.
 */
export async function addWishlistEntry(db: Db, customerId: number, productId: number) {
  return db.transaction(async (tx) => {
    if (!(await lockCustomer(tx, customerId)))
      throw new AppError('UNAUTHENTICATED', 'the account of this token no longer exists');
    const existing = await findWishlistEntry(tx, customerId, productId);
    if (existing !== undefined) return { id: existing, created: false };
    await assertWishlistRoom(tx, customerId);
    const entry = await addToWishlist(tx, customerId, productId);
    if (!entry) {
      throw new AppError('UNPROCESSABLE', 'productId refers to no available product', [
        { field: 'productId', message: 'refers to no available product' },
      ]);
    }
    return entry;
  });
}

export async function removeWishlistEntry(db: Db, customerId: number, productId: number): Promise<void> {
  const removed = await removeFromWishlist(db, customerId, productId);
  if (!removed) throw new AppError('NOT_FOUND', `product ${productId} is not in the wishlist`);
}
