import type { BenchContext, Scenario } from './types.ts';

// Checkout benchmarks. Data is made through the HTTP API of the running server (a superuser token).
//
// place-order cannot be measured honestly by repeating one request: an order empties its cart, and
// replaying one Idempotency-Key makes no new order. So its setup runs a closed loop instead: 10 workers,
// each cycle = add one unit to a NEW guest cart + place that cart as an order, for BENCH_DURATION
// seconds, and prints completed orders per second (only 201s count; anything else is reported and
// fails the run). The autocannon row of that scenario measures a customer's order history instead.

const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const ORDER_WORKERS = 10;
const ORDERS_TARGET_PG = 300;

const ADDRESS = {
  firstName: 'Bench',
  lastName: 'Mark',
  phone: '+49 30 1234567',
  street: 'Main Street 1',
  city: 'Berlin',
  countryAlpha2: 'DE',
  postalCode: '10115',
};

interface Answer {
  status: number;
  body: Record<string, unknown>;
  headers: Headers;
}

async function api(
  ctx: BenchContext,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const res = await fetch(ctx.baseUrl + path, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return {
    status: res.status,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
    headers: res.headers,
  };
}

async function create(ctx: BenchContext, path: string, body: Record<string, unknown>): Promise<number> {
  const admin = await ctx.mint({ sub: 'static:bench@example.com', ctx: 'admin', roles: [1] });
  const res = await api(ctx, 'POST', path, body, { authorization: `Bearer ${admin}` });
  if (res.status !== 201) throw new Error(`POST ${path} answered ${res.status} ${JSON.stringify(res.body)}`);
  return (res.body.data as { id: number }).id;
}

const uid = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;

async function makeProducts(ctx: BenchContext, n: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const id = uid();
    ids.push(
      await create(ctx, '/rest/product/product', {
        name: `Bench product ${id}`,
        sku: `BENCH-${id}`,
        price: (1299 + i * 750) / 100,
        vatRate: i % 2 ? 7 : 19,
        weightKg: 0.75 * (i + 1),
        stockQty: 1_000_000_000,
      }),
    );
  }
  return ids;
}

function makeTransport(ctx: BenchContext): Promise<number> {
  return create(ctx, '/rest/checkout/transport', {
    name: `Bench courier ${uid()}`,
    price: 4.9,
    freeShippingThreshold: 250,
    includedWeightKg: 5,
    overweightPricePerKg: 1.2,
    codFee: 3,
  });
}

/** Registers a customer and mints a token for it that outlives the run. */
async function makeCustomer(ctx: BenchContext): Promise<string> {
  const res = await api(ctx, 'POST', '/rest/auth/customer/register', {
    email: `bench-${uid()}@example.com`,
    password: 'bench-password-1',
    firstName: 'Bench',
    lastName: 'Mark',
  });
  if (res.status !== 201) throw new Error(`register answered ${res.status}`);
  const payload = (res.body.access_token as string).split('.')[1];
  const sub = (JSON.parse(Buffer.from(payload, 'base64url').toString()) as { sub: string }).sub;
  return ctx.mint({ sub, ctx: 'customer' });
}

function percentile(sorted: number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] : 0;
}

/** The closed loop of place-order (see the top of this file); prints orders/s and the outcome counts. */
async function measureOrders(ctx: BenchContext): Promise<void> {
  const [productId] = await makeProducts(ctx, 1);
  const transportId = await makeTransport(ctx);
  const deadline = Date.now() + DURATION_S * 1000;
  const outcomes: Record<string, number> = {};
  const latencies: number[] = [];
  const started = Date.now();
  const worker = async (w: number) => {
    for (let i = 0; Date.now() < deadline; i++) {
      const added = await api(ctx, 'POST', '/rest/cart/items', { productId, qty: 1 });
      const cart = added.headers.get('x-cart-token') ?? '';
      const t0 = performance.now();
      const res = await api(
        ctx,
        'POST',
        '/rest/checkout/place-order',
        { ...ADDRESS, transportId, payWay: 'card', email: `b${w}-${i}@example.com` },
        { 'x-cart-token': cart },
      );
      latencies.push(performance.now() - t0);
      outcomes[res.status] = (outcomes[res.status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: ORDER_WORKERS }, (_, w) => worker(w)));
  const seconds = (Date.now() - started) / 1000;
  const orders = outcomes[201] ?? 0;
  const rate = orders / seconds;
  latencies.sort((a, b) => a - b);
  const verdict = ctx.engine === 'postgres' ? (rate >= ORDERS_TARGET_PG ? 'ok' : 'BELOW') : '-';
  console.log(
    `place-order loop (${ctx.engine}, ${ORDER_WORKERS} workers, add-to-cart + place-order per cycle): ` +
      `${orders} orders in ${seconds.toFixed(1)} s = ${rate.toFixed(0)} orders/s ` +
      `(target on postgres ≥ ${ORDERS_TARGET_PG}: ${verdict}); place-order p50/p99 ${percentile(latencies, 50).toFixed(1)}/${percentile(latencies, 99).toFixed(1)} ms; ` +
      `statuses ${JSON.stringify(outcomes)}`,
  );
  if (verdict === 'BELOW' || orders !== latencies.length) process.exitCode = 1;
}

export const checkoutScenarios: Scenario[] = [
  {
    group: 'checkout',
    name: 'checkout totals, 5-line customer cart',
    connections: 10,
    target: 0.03,
    setup: async (ctx) => {
      const products = await makeProducts(ctx, 5);
      const transportId = await makeTransport(ctx);
      const code = `BENCH${uid().toUpperCase()}`;
      await create(ctx, '/rest/checkout/coupon', { code, type: 'percent', value: 10 });
      const token = await makeCustomer(ctx);
      const auth = { authorization: `Bearer ${token}` };
      for (const [i, productId] of products.entries()) {
        const res = await api(ctx, 'POST', '/rest/cart/items', { productId, qty: i + 1 }, auth);
        if (res.status !== 200) throw new Error(`add to cart answered ${res.status}`);
      }
      await api(ctx, 'POST', '/rest/cart/coupon', { code }, auth);
      ctx.state.totalsToken = token;
      ctx.state.totalsTransport = String(transportId);
    },
    request: (ctx) => ({
      method: 'POST',
      path: '/rest/v1/checkout/totals',
      headers: { authorization: `Bearer ${ctx.state.totalsToken}` },
      body: {
        transportId: Number(ctx.state.totalsTransport),
        payWay: 'delivery',
        giftPackaging: true,
        redeemPoints: true,
      },
    }),
  },
  {
    group: 'checkout',
    name: "customer's order list (15 newest with lines); setup prints place-order orders/s",
    connections: 10,
    setup: async (ctx) => {
      await measureOrders(ctx);
      const [productId] = await makeProducts(ctx, 1);
      const transportId = await makeTransport(ctx);
      const token = await makeCustomer(ctx);
      const auth = { authorization: `Bearer ${token}` };
      for (let i = 0; i < 20; i++) {
        await api(ctx, 'POST', '/rest/cart/items', { productId, qty: 1 + (i % 3) }, auth);
        const res = await api(ctx, 'POST', '/rest/checkout/place-order', { ...ADDRESS, transportId }, auth);
        if (res.status !== 201) throw new Error(`place-order answered ${res.status}`);
      }
      ctx.state.ordersToken = token;
    },
    request: (ctx) => ({
      path: '/rest/order/order',
      headers: { authorization: `Bearer ${ctx.state.ordersToken}` },
    }),
  },
];
