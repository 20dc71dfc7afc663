import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { Caller } from '../../http/access.ts';
import { AppError } from '../../http/errors.ts';
import { fromCents } from '../../lib/money.ts';
import { isForeignKeyViolation } from '../../db/errors.ts';
import { stockStatusOf } from '../catalog/stock.ts';
import { findOnlyVariant, findVariant, type VariantRef } from '../catalog/variant.repo.ts';
import { countRedemptions, findCouponByCode } from '../promotions/promotions.repo.ts';
import { couponProblem } from '../promotions/coupons.ts';
import { getSetting } from '../settings/settings.service.ts';
import { type CartOwner, cartOwnerOf, cartTokenHash, hashCartToken, newCartToken } from './cart-token.ts';
import {
  cartLinesWithProducts,
  createCart,
  deleteCart,
  deleteLine,
  findCart,
  lineStats,
  lockCart,
  mergeLines,
  putLine,
  setCoupon,
  setLineQty,
  touchCart,
} from './cart.repo.ts';
import type { CartJsonType } from './cart.schemas.ts';
import { CART_MAX_LINES, type CartRow } from './cart.tables.ts';

export interface CartDeps {
  db: Db;
  config: Config;
  /** Runs before a request creates a new guest cart (the per-address limit of new carts); may throw. */
  beforeNewGuestCart?: () => Promise<void>;
}

/** The cart to answer, and the guest token to send back in X-Cart-Token (absent for customers). */
export interface CartAnswer {
  cart: CartJsonType;
  token?: string;
}

const EMPTY: CartJsonType = { lines: [], couponCode: null, itemCount: 0, goods: 0 };

async function view(db: Db, cart: CartRow | undefined, token: string | undefined): Promise<CartAnswer> {
  if (!cart) return { cart: { ...EMPTY } };
  const rows = await cartLinesWithProducts(db, cart.id);
  let goods = 0;
  let itemCount = 0;
  const lines = rows.map((r) => {
    if (r.active) {
      goods += r.price * r.qty;
      itemCount += r.qty;
    }
    return {
      productId: r.productId,
      variantId: r.variantId,
      sku: r.sku,
      name: r.name,
      options: r.options,
      slug: r.slug,
      image: r.image,
      unitPrice: fromCents(r.price),
      qty: r.qty,
      lineTotal: fromCents(r.price * r.qty),
      stockStatus: r.stockQty < r.qty ? 'out_of_stock' : stockStatusOf(r.stockQty),
      availableQty: r.stockQty,
      available: r.active,
    };
  });
  const json: CartJsonType = { lines, couponCode: cart.couponCode, itemCount, goods: fromCents(goods) };
  if (token) json.token = token;
  return { cart: json, token };
}

/** A token can outlive its account: creating the cart of a deleted customer is a 401, not a 500. */
async function createCustomerCart(tx: Db, customerId: number): Promise<CartRow | undefined> {
  try {
    return await createCart(tx, { customerId });
  } catch (err) {
    if (isForeignKeyViolation(err))
      throw new AppError('UNAUTHENTICATED', 'the customer account no longer exists');
    throw err;
  }
}

type CartChange = (tx: Db, cart: CartRow) => Promise<void>;

/**
 * Runs one cart write in a transaction on the locked cart row. A missing cart is created when `create`
 * is set: for a guest under a NEW token (an unknown token never names a cart, and a token the client
 * made up is never adopted), for a customer as their one cart.
 */
async function writeCart(
  deps: CartDeps,
  caller: Caller,
  sentToken: string | undefined,
  create: boolean,
  change: CartChange,
): Promise<CartAnswer> {
  const owner = cartOwnerOf(caller, sentToken);
  return deps.db.transaction(async (tx) => {
    let token = owner.kind === 'guest' && owner.tokenHash ? sentToken : undefined;
    let cart = await lockCart(tx, owner);
    if (!cart && !create) return view(tx, undefined, undefined);
    if (!cart && owner.kind === 'customer') {
      // biome-ignore lint/style/noNonNullAssertion: the insert lost to a concurrent one, so the cart exists to lock
      cart = (await createCustomerCart(tx, owner.customerId)) ?? (await lockCart(tx, owner))!;
    } else if (!cart) {
      await deps.beforeNewGuestCart?.();
      token = newCartToken();
      // biome-ignore lint/style/noNonNullAssertion: insert … returning answers the row it inserted
      cart = (await createCart(tx, { tokenHash: hashCartToken(token) }))!;
    }
    await change(tx, cart);
    return view(tx, await touchCart(tx, cart.id), token);
  });
}

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

export async function readCart(
  deps: CartDeps,
  caller: Caller,
  token: string | undefined,
): Promise<CartAnswer> {
  const owner = cartOwnerOf(caller, token);
  const cart = await findCart(deps.db, owner);
  return view(deps.db, cart, cart ? token : undefined);
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

/** Applies a coupon that can be used now (active, started, not expired, not used up) or answers 422. */
export function applyCoupon(
  deps: CartDeps,
  caller: Caller,
  token: string | undefined,
  code: string,
  now: Date,
) {
  return writeCart(deps, caller, token, true, async (tx, cart) => {
    const coupon = await findCouponByCode(tx, code.trim());
    const uses =
      coupon && coupon.perCustomerLimit !== null && cart.customerId !== null
        ? await countRedemptions(tx, coupon.id, { customerId: cart.customerId })
        : null;
    const problem = couponProblem(coupon, now, uses);
    if (!coupon || problem) {
      throw new AppError('COUPON_INVALID', 'the coupon code is not valid', [
        { field: 'code', message: problem ?? 'COUPON_UNKNOWN' },
      ]);
    }
    await setCoupon(tx, cart.id, coupon.code);
  });
}

export function removeCoupon(deps: CartDeps, caller: Caller, token: string | undefined) {
  return writeCart(deps, caller, token, false, (tx, cart) => setCoupon(tx, cart.id, null));
}

/**
 * Moves a guest cart into the customer's at login: quantities summed, the guest's coupon kept when the
 * customer has none, the guest cart deleted. An unknown token merges nothing. A summed line above
 * `cart_max_line_qty` is lowered to it rather than refused: the login must not fail over the cart,
 * and the customer sees the quantity in the cart before ordering.
 * Locks the guest cart, then the customer's: the same order for every merge of that token.
 */
export async function mergeGuestCart(
  deps: CartDeps,
  cartToken: string | undefined,
  customerId: number,
): Promise<void> {
  const tokenHash = cartTokenHash(cartToken);
  if (tokenHash === null) return;
  await deps.db.transaction(async (tx) => {
    const guest = await lockCart(tx, { kind: 'guest', tokenHash });
    if (!guest) return;
    const owner: CartOwner = { kind: 'customer', customerId };
    // biome-ignore lint/style/noNonNullAssertion: the insert lost to a concurrent one, so the cart exists to lock
    const mine = (await createCart(tx, { customerId })) ?? (await lockCart(tx, owner))!;
    const maxQty = await getSetting(tx, deps.config, 'cart_max_line_qty');
    await mergeLines(tx, guest.id, mine.id, { maxLines: CART_MAX_LINES, maxQty });
    if (mine.couponCode === null && guest.couponCode !== null) await setCoupon(tx, mine.id, guest.couponCode);
    await deleteCart(tx, guest.id);
    await touchCart(tx, mine.id);
  });
}

/** The login hook: after a customer login that carried X-Cart-Token, merges that guest cart into the customer's. */
export async function mergeGuestCartAtLogin(
  deps: CartDeps,
  cartToken: string | string[] | undefined,
  customerId: number,
): Promise<void> {
  if (typeof cartToken !== 'string') return;
  await mergeGuestCart(deps, cartToken, customerId);
}
