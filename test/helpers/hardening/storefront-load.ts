import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import autocannon from 'autocannon';
import { Tally } from './figures.ts';

// The soak's mixed storefront load for autocannon: each connection is a shopper (a customer
// with points, or a guest) cycling through browse, product, add to cart, coupon, totals,
// place-order, and the same place-order again with its idempotency key (a client retry).

export interface LoadShop {
  productIds: number[];
  transportId: number;
  couponCode: string;
  customerTokens: string[];
}

export interface LoadResult {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** `status` or `status CODE` → count. */
  answers: Tally;
  /** Answers that are neither 2xx nor a documented business conflict. */
  unexpected: Tally;
  /** Retried place-orders whose answer differed from the first: `first then retry` → count. */
  replayMismatches: Tally;
  /** Order ids answered 201 (first answers, replays, and the retries of unanswered requests). */
  orderIds: Set<number>;
  /** Place-orders in flight when the load stopped, retried with their key afterwards. */
  unansweredRetried: number;
}

/** Business refusals the documentation lists for these operations under contention. */
const DOCUMENTED_CONFLICTS = new Set(['409 OUT_OF_STOCK', '422 CART_EMPTY', '422 COUPON_INVALID']);

interface Shopper {
  n: number;
  token?: string;
  cartToken?: string;
  cycle: number;
  key?: string;
  body?: string;
  firstStatus?: number;
  firstOrderId?: number;
  firstCode?: string;
}

function code(body: string): string {
  try {
    const c = (JSON.parse(body) as { error?: { code?: string } }).error?.code;
    return c ? ` ${c}` : '';
  } catch {
    return '';
  }
}

const ADDRESS = {
  firstName: 'Soak',
  lastName: 'Shopper',
  phone: '+49 30 555',
  street: 'Lastgasse 5',
  city: 'Berlin',
  countryAlpha2: 'DE',
  postalCode: '10117',
  payWay: 'card',
};

export async function runStorefrontLoad(
  base: string,
  shop: LoadShop,
  options: { connections: number; durationSeconds: number },
): Promise<LoadResult> {
  const answers = new Tally();
  const unexpected = new Tally();
  const orderIds = new Set<number>();
  const replayMismatches = new Tally();
  /** Place-orders sent and not yet answered: what a client would retry with the same key. */
  const unanswered = new Map<string, { headers: IncomingHttpHeaders; body: string }>();
  let shoppers = 0;

  // autocannon gives each connection a fresh context at every pass over the request list: one
  // pass is one shopper's visit. A customer token is lent for the visit, so no two connections
  // ever fill the same customer's cart at once.
  const freeTokens = [...shop.customerTokens];
  const me = (context: object): Shopper => {
    const s = context as Partial<Shopper>;
    if (s.n === undefined) {
      s.n = shoppers++;
      s.cycle = s.n;
      if (s.n % 5 < 2) s.token = freeTokens.pop();
    }
    return s as Shopper;
  };
  const leave = (s: Shopper) => {
    if (s.token) freeTokens.push(s.token);
    s.token = undefined;
  };
  const headers = (s: Shopper, extra: Record<string, string> = {}): IncomingHttpHeaders => ({
    'content-type': 'application/json',
    ...(s.token ? { authorization: `Bearer ${s.token}` } : {}),
    ...(!s.token && s.cartToken ? { 'x-cart-token': s.cartToken } : {}),
    ...extra,
  });
  const pick = <T>(items: T[]) => items[Math.floor(Math.random() * items.length)];
  const record = (status: number, body: string, context: object, what: string) => {
    let code = '';
    if (status >= 400) {
      try {
        code = (JSON.parse(body) as { error?: { code?: string } }).error?.code ?? '';
      } catch {
        code = 'non-JSON';
      }
    }
    const key = code ? `${status} ${code}` : String(status);
    answers.add(key);
    if (status >= 300 && !DOCUMENTED_CONFLICTS.has(key)) unexpected.add(`${what} ${key}`);
    return me(context);
  };

  const requests: autocannon.Request[] = [
    {
      method: 'GET',
      setupRequest: (req, context) => {
        const s = me(context);
        return {
          ...req,
          path: `/rest/product/product?limit=24&sort=${pick(['-price', 'name', 'id'])}`,
          headers: headers(s),
        };
      },
      onResponse: (status, body, context) => void record(status, body, context, 'list'),
    },
    {
      method: 'GET',
      setupRequest: (req, context) => ({
        ...req,
        path: `/rest/product/product/${pick(shop.productIds)}`,
        headers: headers(me(context)),
      }),
      onResponse: (status, body, context) => void record(status, body, context, 'show'),
    },
    {
      method: 'POST',
      path: '/rest/cart/items',
      setupRequest: (req, context) => {
        const s = me(context);
        return {
          ...req,
          headers: headers(s),
          body: JSON.stringify({ productId: pick(shop.productIds), qty: 1 + (s.cycle % 3) }),
        };
      },
      onResponse: (status, body, context, resHeaders) => {
        const s = record(status, body, context, 'add');
        const token = resHeaders?.['x-cart-token'];
        if (typeof token === 'string') s.cartToken = token;
      },
    },
    {
      method: 'POST',
      path: '/rest/cart/coupon',
      setupRequest: (req, context) => {
        const s = me(context);
        return {
          ...req,
          headers: headers(s),
          body: JSON.stringify({ code: s.cycle % 3 === 0 ? shop.couponCode : 'NOPE' }),
        };
      },
      onResponse: (status, body, context) => {
        // A wrong or used-up code is refused with 422 COUPON_INVALID by design.
        void record(status, body, context, 'coupon');
      },
    },
    {
      method: 'POST',
      path: '/rest/v1/checkout/totals',
      setupRequest: (req, context) => {
        const s = me(context);
        return {
          ...req,
          headers: headers(s),
          body: JSON.stringify({
            transportId: shop.transportId,
            payWay: 'card',
            redeemPoints: Boolean(s.token),
          }),
        };
      },
      onResponse: (status, body, context) => void record(status, body, context, 'totals'),
    },
    {
      method: 'POST',
      path: '/rest/checkout/place-order',
      setupRequest: (req, context) => {
        const s = me(context);
        s.key = randomUUID();
        s.body = JSON.stringify({
          ...ADDRESS,
          ...(s.token ? {} : { email: `soak-${s.n}@example.com` }),
          transportId: shop.transportId,
          redeemPoints: Boolean(s.token) && s.cycle % 2 === 0,
        });
        const sent = headers(s, { 'idempotency-key': s.key });
        unanswered.set(s.key, { headers: sent, body: s.body });
        return { ...req, headers: sent, body: s.body };
      },
      onResponse: (status, body, context) => {
        const s = record(status, body, context, 'place-order');
        unanswered.delete(s.key ?? '');
        s.firstStatus = status;
        s.firstCode = code(body).trim();
        s.firstOrderId = status === 201 ? (JSON.parse(body) as { data: { id: number } }).data.id : undefined;
        if (s.firstOrderId) orderIds.add(s.firstOrderId);
      },
    },
    {
      method: 'POST',
      path: '/rest/checkout/place-order',
      setupRequest: (req, context) => {
        const s = me(context);
        return { ...req, headers: headers(s, { 'idempotency-key': s.key ?? 'none' }), body: s.body };
      },
      onResponse: (status, body, context) => {
        const s = record(status, body, context, 'retry');
        const id = status === 201 ? (JSON.parse(body) as { data: { id: number } }).data.id : undefined;
        if (status !== s.firstStatus || id !== s.firstOrderId) {
          replayMismatches.add(
            `${s.firstStatus}${s.firstCode ? ` ${s.firstCode}` : ''} then ${status}${code(body)}`,
          );
        }
        if (id) orderIds.add(id);
        leave(s);
      },
    },
  ];

  const result = await autocannon({
    url: base,
    connections: options.connections,
    duration: options.durationSeconds,
    requests,
    timeout: 30,
  });
  // The load stops with requests in flight: the server may have placed those orders. A client
  // retries them with the same key and learns the outcome, as anyone would after a timeout.
  for (const [, sent] of unanswered) {
    const res = await fetch(`${base}/rest/checkout/place-order`, {
      method: 'POST',
      headers: sent.headers as Record<string, string>,
      body: sent.body,
    });
    const text = await res.text();
    answers.add(`retried-after-stop ${res.status}`);
    if (res.status === 201) orderIds.add((JSON.parse(text) as { data: { id: number } }).data.id);
  }
  return {
    unansweredRetried: unanswered.size,
    requests: result.requests.total,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    answers,
    unexpected,
    replayMismatches,
    orderIds,
  };
}
