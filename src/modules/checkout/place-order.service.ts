import { usePromotions } from './promotion-steps.ts';
import type { LocaleRequest } from '../../http/locale.ts';
import { preferredLocale } from '../../resources/index.ts';
import { createHash } from 'node:crypto';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { retryingConflicts } from '../../db/errors.ts';
import type { Caller } from '../../http/access.ts';
import { AppError } from '../../http/errors.ts';
import { toCents } from '../../lib/money.ts';
import { cartOwnerOf } from '../cart/cart-token.ts';
import { orderJson } from '../orders/order-json.ts';
import { claimIdempotencyKey, findIdempotencyKey, storeIdempotentAnswer } from '../orders/order.repo.ts';
import type { OrderJsonType, PlaceOrderBodyType } from '../orders/order.schemas.ts';
import {
  addressOf,
  assertOrderable,
  type OrderParties,
  recordPointsSpent,
  recordRedemption,
  reserveStock,
  spendPoints,
  useCoupon,
  writeOrderLinesEmptyCartAndEvent,
} from './place-order.steps.ts';
import { assertPayWayEnabled } from '../payments/methods.ts';
import { startCardPayment } from '../payments/card-payments.ts';
import { assertOrderCaps } from './order-caps.ts';
import { type Quote, type QuoteReference, quoteCart, quoteReference } from './quote.ts';
import { ok } from '../../http/envelope.ts';

export interface PlaceOrderDeps {
  db: Db;
  config: Config;
}

export interface PlaceOrderRequest {
  caller: Caller;
  cartToken: string | undefined;
  idempotencyKey: string | undefined;
  body: PlaceOrderBodyType;
  now: Date;
  /** The locale the request asks for (src/http/locale.ts). */
  locale?: LocaleRequest;
}

/** What to answer: a new order (201) or the replay of the first answer to the same Idempotency-Key. */
export interface PlaceOrderAnswer {
  status: number;
  body: { success: true; data: OrderJsonType };
  replayed: boolean;
}

/** Thrown inside the transaction when the key is taken, so it rolls back before the replay is read. */
class KeyTaken extends Error {}

/** JSON with keys sorted at every level: equal bodies hash alike whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

function expectedCents(body: PlaceOrderBodyType): number | undefined {
  if (body.expectedTotal === undefined) return undefined;
  try {
    return toCents(body.expectedTotal);
  } catch {
    throw new AppError('VALIDATION_FAILED', 'expectedTotal has more than two decimals', [
      { field: 'expectedTotal', message: 'must have at most two decimals' },
    ]);
  }
}

interface Buyer {
  scope: string;
  customerId: number | null;
  guestEmail: string | undefined;
}

/** Who is buying and the scope of their idempotency keys. */
function buyerOf(req: PlaceOrderRequest): Buyer {
  const owner = cartOwnerOf(req.caller, req.cartToken);
  if (owner.kind === 'customer')
    return { scope: `customer:${owner.customerId}`, customerId: owner.customerId, guestEmail: undefined };
  if (req.body.email === undefined) {
    throw new AppError('VALIDATION_FAILED', 'email is required for a guest order', [
      { field: 'email', message: 'is required for guests' },
    ]);
  }
  if (owner.tokenHash === null) throw new AppError('CART_EMPTY', 'the cart is empty');
  return { scope: `cart:${owner.tokenHash}`, customerId: null, guestEmail: req.body.email };
}

/** Quotes the cart inside the order's transaction (its row locked) and checks the buyer may order. */
async function quoteLockedCart(
  tx: Db,
  deps: PlaceOrderDeps,
  req: PlaceOrderRequest,
  buyer: Buyer,
  reference: QuoteReference,
): Promise<Quote> {
  const quote = await quoteCart(
    { db: tx, config: deps.config, pool: deps.db },
    req.caller,
    req.cartToken,
    req.body,
    req.now,
    {
      reference,
      guestEmail: buyer.guestEmail,
      locale: req.locale,
    },
  );
  if (buyer.customerId === null && !quote.settings.feature_guest_checkout) {
    throw new AppError('UNAUTHENTICATED', 'guest checkout is turned off: log in to place an order');
  }
  if (buyer.customerId !== null && !quote.customer?.active) {
    throw new AppError('UNAUTHENTICATED', 'the customer account is closed');
  }
  return quote;
}

function partiesOf(req: PlaceOrderRequest, buyer: Buyer, quote: Quote): OrderParties {
  const email = buyer.guestEmail ?? req.body.email ?? quote.customer?.email ?? '';
  return {
    customerId: buyer.customerId,
    email,
    address: addressOf(req.body, email),
    payWay: req.body.payWay ?? null,
    locale: preferredLocale(req.locale, quote.settings),
  };
}

/**
 * Places the caller's cart as an order. With an Idempotency-Key, the key row is inserted first in the
 * same transaction: a concurrent duplicate waits on the unique (scope, key) until this one commits and
 * then replays it, or until it rolls back and then runs itself. Refusals are not stored: a retry after
 * a 409/422 runs again (the client may have fixed the cause).
 */
/** The stored answer of an earlier request with this key, or undefined; another body is a 422. */
async function replay(deps: PlaceOrderDeps, scope: string, key: string, requestHash: string) {
  const stored = await findIdempotencyKey(deps.db, scope, key);
  if (!stored) return undefined;
  if (stored.requestHash !== requestHash) {
    throw new AppError('IDEMPOTENCY_KEY_REUSED', 'this Idempotency-Key was used with another request body');
  }
  return { status: stored.status, body: stored.response as PlaceOrderAnswer['body'], replayed: true };
}

export async function placeOrder(deps: PlaceOrderDeps, req: PlaceOrderRequest): Promise<PlaceOrderAnswer> {
  const buyer = buyerOf(req);
  const expected = expectedCents(req.body);
  const key = req.idempotencyKey;
  const requestHash = createHash('sha256').update(canonical(req.body)).digest('hex');
  let reference: QuoteReference;
  try {
    reference = await quoteReference(deps, req.body);
  } catch (err) {
    // A transport withdrawn since the first request must not stop its replay.
    const earlier = key === undefined ? undefined : await replay(deps, buyer.scope, key, requestHash);
    if (earlier) return earlier;
    throw err;
  }
  try {
    // The steps of an order, in the order they run. The rows every order competes for (products,
    // coupon) come last, so they stay locked only until commit; locks are always taken in the same
    // order (cart, customer, products by id, coupon, promotions by id, and at commit the versions of
    // products and variants when a stock threshold was crossed), so orders never deadlock each other.
    // PostgreSQL may still roll an order back to break a deadlock with another writer (an admin's
    // edit): it wrote nothing, so it runs again.
    return await retryingConflicts(() =>
      deps.db.transaction(async (tx) => {
        if (key !== undefined && !(await claimIdempotencyKey(tx, buyer.scope, key, requestHash)))
          throw new KeyTaken();
        const quote = await quoteLockedCart(tx, deps, req, buyer, reference);
        assertOrderable(quote, expected);
        assertOrderCaps(quote, req.body.payWay);
        assertPayWayEnabled(deps.config, quote.settings, req.body.payWay);
        const parties = partiesOf(req, buyer, quote);
        await spendPoints(tx, buyer.customerId, quote.totals.pointsSpend);
        const { order, lines } = await writeOrderLinesEmptyCartAndEvent(tx, quote, parties);
        await recordRedemption(tx, quote, order.id, parties);
        await recordPointsSpent(tx, quote, order.id, buyer.customerId);
        const data = orderJson(order, lines);
        const payment =
          parties.payWay === 'card'
            ? await startCardPayment(
                tx,
                deps.config,
                order,
                buyer.customerId,
                quote.settings.payment_capture_mode,
              )
            : undefined;
        const body = ok(payment ? { ...data, payment } : data);
        if (key !== undefined) await storeIdempotentAnswer(tx, buyer.scope, key, 201, body);
        await reserveStock(tx, quote);
        await useCoupon(tx, quote, buyer.customerId, parties.email);
        await usePromotions(tx, quote, order.id);
        return { status: 201, body, replayed: false };
      }),
    );
  } catch (err) {
    if (!(err instanceof KeyTaken) || key === undefined) throw err;
  }
  const earlier = await replay(deps, buyer.scope, key, requestHash);
  if (!earlier)
    throw new AppError('CONFLICT', 'a request with this Idempotency-Key is being processed; retry');
  return earlier;
}
