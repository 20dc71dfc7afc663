// The cart's lines: adding units of a variant, setting a line's quantity, removing a line. A line
// never holds more than the stock on hand, nor the setting `cart_max_line_qty`.
import type { Caller } from '../../http/access.ts';
import { AppError } from '../../http/errors.ts';
import { findOnlyVariant, findVariant, type VariantRef } from '../catalog/variant.repo.ts';
import { getSetting } from '../settings/settings.service.ts';
import { deleteLine, lineStats, putLine, setLineQty } from './cart.repo.ts';
import { type CartDeps, writeCart } from './cart.service.ts';
import type { Db } from '../../db/client.ts';
import { CART_MAX_LINES } from './cart.tables.ts';

/** What an add names: a variant, or a product with exactly one. */
export interface ItemRef {
  variantId?: number;
  productId?: number;
}

function unavailable(ref: ItemRef): AppError {
  const field = ref.variantId !== undefined ? 'variantId' : 'productId';
  const id = ref.variantId ?? ref.productId;
  return new AppError(
    'PRODUCT_UNAVAILABLE',
    `${field === 'variantId' ? 'variant' : 'product'} ${id} is not available`,
    [{ field, message: 'is not available' }],
  );
}

/** The variant an add names; a product with several variants needs one chosen (422 VARIANT_REQUIRED). */
async function variantOf(db: Db, ref: ItemRef): Promise<VariantRef> {
  if (ref.variantId !== undefined) {
    const variant = await findVariant(db, ref.variantId);
    if (!variant?.active) throw unavailable(ref);
    if (ref.productId !== undefined && ref.productId !== variant.productId) {
      throw new AppError(
        'UNPROCESSABLE',
        `variant ${ref.variantId} is not a variant of product ${ref.productId}`,
        [{ field: 'variantId', message: `is not a variant of product ${ref.productId}` }],
      );
    }
    return variant;
  }
  if (ref.productId === undefined) {
    throw new AppError(
      'VALIDATION_FAILED',
      'variantId is required (or productId of a product with one variant)',
      [{ field: 'variantId', message: 'is required' }],
    );
  }
  const variant = await findOnlyVariant(db, ref.productId);
  if (variant && variant.variantCount > 1) {
    throw new AppError('VARIANT_REQUIRED', `product ${ref.productId} has several variants: choose one`, [
      { field: 'variantId', message: 'is required for a product with several variants' },
    ]);
  }
  if (!variant?.active) throw unavailable(ref);
  return variant;
}

/** A line may not hold more units than the variant has on hand (409 naming the variant and what is there). */
function assertInStock(variant: VariantRef, qty: number): void {
  if (qty <= variant.stockQty) return;
  const available = Math.max(0, variant.stockQty);
  throw new AppError('OUT_OF_STOCK', `only ${available} of ${variant.sku} in stock`, [
    {
      field: 'qty',
      message: `${available} available of variant ${variant.variantId}`,
      variantId: variant.variantId,
      availableQty: available,
    },
  ]);
}

function lineTooLarge(maxQty: number, detail: string): AppError {
  return new AppError('LIMIT_REACHED', `a cart line holds at most ${maxQty} units`, [
    { field: 'qty', message: detail },
  ]);
}

/**
 * Adds qty to the variant's line (creating it); a line never holds more than the stock on hand (409
 * OUT_OF_STOCK) nor the setting `cart_max_line_qty` (422 LIMIT_REACHED), a cart more than 200 lines.
 */
export function addItem(
  deps: CartDeps,
  caller: Caller,
  token: string | undefined,
  ref: ItemRef,
  qty: number,
) {
  return writeCart(deps, caller, token, true, async (tx, cart) => {
    const variant = await variantOf(tx, ref);
    const { lines, qty: current } = await lineStats(tx, cart.id, variant.variantId);
    if (current === undefined && lines >= CART_MAX_LINES) {
      throw new AppError('UNPROCESSABLE', `a cart holds at most ${CART_MAX_LINES} lines`);
    }
    const next = (current ?? 0) + qty;
    const maxQty = await getSetting(tx, deps.config, 'cart_max_line_qty');
    if (next > maxQty) throw lineTooLarge(maxQty, `at most ${Math.max(0, maxQty - (current ?? 0))} more`);
    assertInStock(variant, next);
    await putLine(tx, cart.id, variant, next);
  });
}

/**
 * Sets a line's quantity; 0 removes it. The line is named by its variant id (for a product with one
 * variant that is the product's id). Not in the cart: 404; above `cart_max_line_qty`: 422; raised
 * beyond the stock on hand: 409.
 */
export function setItemQty(
  deps: CartDeps,
  caller: Caller,
  token: string | undefined,
  variantId: number,
  qty: number,
) {
  return writeCart(deps, caller, token, false, async (tx, cart) => {
    const { qty: current } = await lineStats(tx, cart.id, variantId);
    if (current === undefined && qty > 0) throw new AppError('NOT_FOUND', `${variantId} is not in the cart`);
    if (qty === 0) return deleteLine(tx, cart.id, variantId);
    const maxQty = await getSetting(tx, deps.config, 'cart_max_line_qty');
    if (qty > maxQty) throw lineTooLarge(maxQty, `must be at most ${maxQty}`);
    if (qty > (current ?? 0)) {
      const variant = await variantOf(tx, { variantId });
      assertInStock(variant, qty);
      await putLine(tx, cart.id, variant, qty);
      return;
    }
    await setLineQty(tx, cart.id, variantId, qty);
  });
}

/** Removing a line that is not there is not an error: the cart is answered as it is. */
export function removeItem(deps: CartDeps, caller: Caller, token: string | undefined, variantId: number) {
  return writeCart(deps, caller, token, false, (tx, cart) => deleteLine(tx, cart.id, variantId));
}
