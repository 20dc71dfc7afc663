import type { Db } from '../../db/client.ts';
import { AppError } from '../../http/errors.ts';
import { isForeignKeyViolation } from '../../resources/index.ts';
import { addToWishlist, removeFromWishlist } from './wishlist.repo.ts';

/**
 * Adds an available product to the customer's wishlist; returns the entry id and whether it was
 * new. An unknown or hidden product is 422; a token whose account is gone is 401.
 */
export async function addWishlistEntry(db: Db, customerId: number, productId: number) {
  let entry: Awaited<ReturnType<typeof addToWishlist>>;
  try {
    entry = await addToWishlist(db, customerId, productId);
  } catch (err) {
    // The product comes from a SELECT, so only the customer can be missing.
    if (isForeignKeyViolation(err))
      throw new AppError('UNAUTHENTICATED', 'the account of this token no longer exists');
    throw err;
  }
  if (!entry) {
    throw new AppError('UNPROCESSABLE', 'productId refers to no available product', [
      { field: 'productId', message: 'refers to no available product' },
    ]);
  }
  return entry;
}

export async function removeWishlistEntry(db: Db, customerId: number, productId: number): Promise<void> {
  const removed = await removeFromWishlist(db, customerId, productId);
  if (!removed) throw new AppError('NOT_FOUND', `product ${productId} is not in the wishlist`);
}
