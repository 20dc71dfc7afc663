import { cpuPer } from '../cpu.ts';
import { ADDRESS, api, makeProducts, makeTransport, percentile, prepareCarts } from './checkout.ts';
import type { BenchContext, Scenario } from './types.ts';

// Card payments with the test provider, the whole round trip as a customer makes it: place-order
// with payWay "card", confirm with the approving card, and the provider's signed event delivered by
// the job queue to the webhook, which pays the order. The setup runs WORKERS customers doing the
// first two steps for BENCH_DURATION seconds, then waits until every order placed is paid, and
// prints paid orders per second over the time from the first order to the last payment. The
// autocannon row measures a paid card order's read (its payment included).

const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const WORKERS = 10;
const PAID_TARGET_PG = 200;
const CARTS_PER_SECOND = Number(process.env.BENCH_CARD_CARTS_PER_S ?? 400);
const SETTLE_LIMIT_MS = 60_000;
const APPROVES = '4242424242424242';

async function paidCount(ctx: BenchContext, email: string, admin: string): Promise<number> {
  const res = await api(
    ctx,
    'GET',
    `/rest/order/order?email=${encodeURIComponent(email)}&paymentStatus=paid&limit=1`,
    undefined,
    { authorization: `Bearer ${admin}` },
  );
  return (res.body.pagination as { total: number }).total;
}

async function measureCardRoundTrip(ctx: BenchContext): Promise<number> {
  const products = await makeProducts(ctx, 10);
  const transportId = await makeTransport(ctx);
  const carts = await prepareCarts(ctx, products, CARTS_PER_SECOND * DURATION_S);
  const email = `bench-card-${Date.now().toString(36)}@example.com`;
  const admin = await ctx.adminToken();
  const outcomes: Record<string, number> = {};
  const latencies: number[] = [];
  let next = 0;
  let lastOrder = 0;
  const cpuBefore = await ctx.cpuMs();
  const started = Date.now();
  const deadline = started + DURATION_S * 1000;
  const worker = async () => {
    while (Date.now() < deadline && next < carts.length) {
      const cart = { 'x-cart-token': carts[next++] };
      const t0 = performance.now();
      const body = { ...ADDRESS, transportId, payWay: 'card', email };
      const placed = await api(ctx, 'POST', '/rest/checkout/place-order', body, cart);
      const intentId = (placed.body.data as { payment?: { intentId: string } } | undefined)?.payment
        ?.intentId;
      const confirmed = intentId
        ? await api(ctx, 'POST', '/rest/payments/test/confirm', { intentId, cardNumber: APPROVES })
        : placed;
      latencies.push(performance.now() - t0);
      const key = `${placed.status}/${confirmed.status}`;
      outcomes[key] = (outcomes[key] ?? 0) + 1;
      if (intentId) lastOrder = (placed.body.data as { id: number }).id;
    }
  };
  await Promise.all(Array.from({ length: WORKERS }, worker));
  const placed = outcomes['201/200'] ?? 0;
  let paid = 0;
  const settleBy = Date.now() + SETTLE_LIMIT_MS;
  while (Date.now() < settleBy) {
    paid = await paidCount(ctx, email, admin);
    if (paid >= placed) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const seconds = (Date.now() - started) / 1000;
  const perOrder = cpuPer(cpuBefore, await ctx.cpuMs(), paid);
  const rate = paid / seconds;
  latencies.sort((a, b) => a - b);
  const verdict = ctx.engine === 'postgres' ? (rate >= PAID_TARGET_PG ? 'ok' : 'BELOW') : '-';
  console.log(
    `card round trip (${ctx.engine}, test provider, ${WORKERS} workers): ${placed} placed and confirmed, ${paid} paid ` +
      `in ${seconds.toFixed(1)} s = ${rate.toFixed(0)} paid orders/s (target on postgres ≥ ${PAID_TARGET_PG}: ${verdict}); ` +
      `place + confirm p50/p99 ${percentile(latencies, 50).toFixed(1)}/${percentile(latencies, 99).toFixed(1)} ms; ` +
      `statuses ${JSON.stringify(outcomes)}; CPU per paid order: service ${perOrder.server} µs, ` +
      `database ${perOrder.database ?? '-'} µs`,
  );
  if (verdict === 'BELOW' || paid < placed) process.exitCode = 1;
  return lastOrder;
}

export const paymentScenarios: Scenario[] = [
  {
    group: 'payments',
    name: 'a paid card order, read by the back office; setup prints the card round trip paid orders/s',
    connections: 10,
    setup: async (ctx) => {
      ctx.state.paidCardOrder = String(await measureCardRoundTrip(ctx));
      ctx.state.paymentsAdmin = await ctx.adminToken();
    },
    request: (ctx) => ({
      path: `/rest/order/order/${ctx.state.paidCardOrder}`,
      headers: { authorization: `Bearer ${ctx.state.paymentsAdmin}` },
    }),
  },
];
