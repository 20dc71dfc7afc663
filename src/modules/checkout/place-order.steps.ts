import type { Db } from '../../db/client.ts';
import { stockOnHand, takeStock } from '../catalog/stock.repo.ts';
import { unitsByVariant } from '../catalog/stock.ts';
import { countRedemptions, insertRedemption, takeCouponUse } from '../promotions/promotions.repo.ts';
import { AppError, type ErrorDetail } from '../../http/errors.ts';
import { changeLoyaltyPoints } from '../customers/customer.repo.ts';
import { insertLedgerEntry } from '../loyalty/loyalty.repo.ts';
import type { NewOrderLine, StoredOrder } from '../orders/placed-order.repo.ts';
import type { AddressJsonType, PlaceOrderBodyType } from '../orders/order.schemas.ts';
import type { Quote, QuotedLine } from './quote.ts';
import { insertOrderEmptyCartAndRecordEvent } from './place-order.repo.ts';
import { figuresOf } from '../pricing/totals-json.ts';

/** The largest amount, in cents, the order columns (integer) hold. */
const ORDER_AMOUNT_MAX = 2_147_483_647;

// The steps of place-order after the quote, each inside the one transaction of placeOrder.

/** Refuses a quote that cannot become an order as it stands: nothing is charged that was not shown. */
export function assertOrderable(quote: Quote, expectedTotal: number | undefined): void {
  const t = quote.totals;
  if (quote.lines.length === 0 && quote.unavailable.length === 0)
    throw new AppError('CART_EMPTY', 'the cart is empty');
  if (quote.unavailable.length) {
    const details = quote.unavailable.map((id) => ({
      field: 'productId',
      message: `${id} is no longer available`,
    }));
    throw new AppError('PRODUCT_UNAVAILABLE', 'some products in the cart are no longer available', details);
  }
  if (quote.transport === null) {
    throw new AppError('TRANSPORT_INVALID', 'choose a transport (transportId) to place an order', [
      { field: 'transportId', message: 'is required to place an order' },
    ]);
  }
  if (t.couponError) {
    throw new AppError('COUPON_INVALID', 'the coupon in the cart cannot be used', [
      { field: 'couponCode', message: t.couponError },
    ]);
  }
  if (t.giftErrors.length) {
    const details = t.giftErrors.map((e) => ({
      field: 'selectedGifts',
      message: `gift ${e.giftId}/product ${e.productId}: ${e.reason}`,
    }));
    throw new AppError('GIFT_INVALID', 'a selected gift cannot be given', details);
  }
  if (Math.max(t.subtotal, t.payableBeforePoints) > ORDER_AMOUNT_MAX) {
    // Order figures are stored as 32-bit integer cents; a larger order is refused, not truncated.
    throw new AppError('UNPROCESSABLE', 'the order is larger than one order can hold (21,474,836.47)', [
      { field: 'cart', message: 'split the purchase into several orders' },
    ]);
  }
  if (expectedTotal !== undefined && expectedTotal !== t.total) {
    throw new AppError('TOTAL_CHANGED', 'the total has changed since it was shown; quote again', [
      { field: 'expectedTotal', message: `the total is now ${(t.total / 100).toFixed(2)}` },
    ]);
  }
}

/**
 * Takes the stock of every line and gift, variant by variant in the one order every writer locks in
 * (product id, then variant id: the trigger locks each product after its variants). Every short
 * variant is named, with what is on hand; then the caller rolls the order back.
 */
export async function reserveStock(tx: Db, quote: Quote): Promise<void> {
  const missing: ErrorDetail[] = [];
  const skuOf = new Map([...quote.lines, ...quote.gifts].map((l) => [l.variantId, l.sku]));
  for (const { variantId, qty } of unitsByVariant([...quote.lines, ...quote.gifts])) {
    if (await takeStock(tx, variantId, qty)) continue;
    const available = await stockOnHand(tx, variantId);
    missing.push({
      field: 'variantId',
      message: `${skuOf.get(variantId)}: ${available} in stock, ${qty} ordered`,
      variantId,
      availableQty: available,
    });
  }
  if (missing.length) throw new AppError('OUT_OF_STOCK', 'not enough stock for this order', missing);
}

/**
 * Counts the coupon's use with a guarded UPDATE (which also locks the coupon row), then re-counts this
 * buyer's redemptions, the one this order wrote included: behind that lock the count includes every
 * committed order of the same coupon.
 */
export async function useCoupon(
  tx: Db,
  quote: Quote,
  customerId: number | null,
  email: string,
): Promise<void> {
  const coupon = quote.coupon;
  if (!coupon) return;
  const refuse = (why: string) =>
    new AppError('COUPON_INVALID', 'the coupon cannot be used', [{ field: 'couponCode', message: why }]);
  if (!(await takeCouponUse(tx, coupon.id))) throw refuse('COUPON_USED_UP');
  if (coupon.perCustomerLimit !== null) {
    const uses = await countRedemptions(tx, coupon.id, customerId !== null ? { customerId } : { email });
    if (uses > coupon.perCustomerLimit) throw refuse('COUPON_CUSTOMER_LIMIT');
  }
}

/** Spends the quoted points; the customer row was locked before the quote, so this only fails on a bug or a race we missed. */
export async function spendPoints(tx: Db, customerId: number | null, points: number): Promise<void> {
  if (customerId === null || points === 0) return;
  if ((await changeLoyaltyPoints(tx, customerId, -points)) === undefined) {
    throw new AppError('TOTAL_CHANGED', 'the points balance has changed; quote again');
  }
}

export function addressOf(body: PlaceOrderBodyType, email: string): AddressJsonType {
  return {
    firstName: body.firstName,
    lastName: body.lastName,
    phone: body.phone,
    email,
    street: body.street,
    city: body.city,
    countyAlpha: body.countyAlpha ?? null,
    countryAlpha2: body.countryAlpha2.toUpperCase(),
    postalCode: body.postalCode ?? null,
  };
}

function orderLines(quote: Quote): NewOrderLine[] {
  const line = (l: QuotedLine, giftId: number | null): NewOrderLine => ({
    productId: l.productId,
    variantId: l.variantId,
    sku: l.sku,
    options: l.options,
    name: l.name,
    unitPrice: l.unitPrice,
    qty: l.qty,
    vatRate: l.vatRate,
    lineTotal: l.unitPrice * l.qty,
    giftId,
  });
  return [...quote.lines.map((l) => line(l, null)), ...quote.gifts.map((g) => line(g, g.giftId))];
}

export interface OrderParties {
  customerId: number | null;
  email: string;
  address: AddressJsonType;
  payWay: PlaceOrderBodyType['payWay'] | null;
  /** The enabled locale the request asked for; null: the customer's own, else the default. */
  locale: string | null;
}

/**
 * Writes the order with the quote's figures, its line snapshots, the emptied cart and the
 * `order.placed` event: four steps in ONE statement (a round trip per order less).
 */
export async function writeOrderLinesEmptyCartAndEvent(
  tx: Db,
  quote: Quote,
  who: OrderParties,
): Promise<StoredOrder> {
  const t = quote.totals;
  // assertOrderable has refused a quote without lines, so there is a cart.
  if (quote.cart === undefined) throw new AppError('CART_EMPTY', 'the cart is empty');
  return insertOrderEmptyCartAndRecordEvent(
    tx,
    {
      customerId: who.customerId,
      email: who.email,
      currency: quote.settings.currency,
      total: t.total,
      totals: figuresOf(t),
      address: who.address,
      vatBreakdown: t.vatBreakdown,
      couponId: quote.coupon?.id ?? null,
      couponCode: quote.coupon?.code ?? null,
      pointsSpent: t.pointsSpend,
      transportId: quote.transport?.id ?? null,
      transportName: quote.transport?.name ?? null,
      payWay: who.payWay,
      giftPackaging: quote.giftPackaging,
      vatId: quote.destination.vatId?.text ?? null,
      shippingRate: quote.destination.shipping,
      locale: who.locale,
    },
    orderLines(quote),
    quote.cart.id,
  );
}

/** Records the coupon's redemption by this order (what per-customer limits count). */
export async function recordRedemption(
  tx: Db,
  quote: Quote,
  orderId: number,
  who: OrderParties,
): Promise<void> {
  if (!quote.coupon) return;
  await insertRedemption(tx, {
    couponId: quote.coupon.id,
    orderId,
    customerId: who.customerId,
    email: who.email,
  });
}

/** The points ledger row of the points the order spent (the balance itself was taken by spendPoints). */
export async function recordPointsSpent(tx: Db, quote: Quote, orderId: number, customerId: number | null) {
  if (customerId === null || quote.totals.pointsSpend === 0) return;
  await insertLedgerEntry(tx, { customerId, delta: -quote.totals.pointsSpend, reason: 'redeemed', orderId });
}
