import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/db/client.ts';
import { toCents } from '../../src/lib/money.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { setStoredSetting } from '../helpers/catalog-factories.ts';
import {
  adminToken,
  call,
  fillCart,
  makeCoupon,
  makeCustomer,
  makeProduct,
  makeTransport,
  placeOrder,
} from '../checkout/fixtures.ts';

// Returns through HTTP over random orders (fast-check): lines at random prices and quantities, a
// coupon or none, points or none, every unit returned in random parts and order. At every step the
// refunds stay within what was paid; once all is back each line has refunded its exact proportional
// share (gross less its part of the coupon and of the points' cash, each allocated to within a cent)
// and the lines together exactly what was paid for the goods. Replay with FC_SEED=<seed>.

const seed = Number(process.env.FC_SEED ?? Date.now() % 2_147_483_647);
const numRuns = Number(process.env.FC_RUNS ?? 15);

interface Order {
  id: number;
  total: number;
  paid: number;
  refunded: number;
  pointsSpent: number;
  totals: { couponDiscount: number; pointsCash: number };
  lines: { id: number; qty: number; lineTotal: number }[];
  returns: {
    amount: number;
    points: number;
    lines: { orderLineId: number; amount: number; points: number }[];
  }[];
}

const anOrder = fc.record({
  lines: fc.array(
    fc.record({
      price: fc.integer({ min: 1, max: 30_000 }),
      qty: fc.integer({ min: 1, max: 4 }),
      vatRate: fc.constantFrom(6, 13, 24),
    }),
    { minLength: 1, maxLength: 4 },
  ),
  coupon: fc.oneof(
    fc.constant(null),
    fc.record({ type: fc.constant<'fixed'>('fixed'), value: fc.integer({ min: 1, max: 20_000 }) }),
    fc.record({ type: fc.constant<'percent'>('percent'), value: fc.integer({ min: 1, max: 5_000 }) }),
  ),
  points: fc.oneof(fc.constant(0), fc.integer({ min: 100, max: 50_000 })),
  /** Sizes of the parts each line's units come back in (cycled), and the order of the parts. */
  parts: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 1, maxLength: 4 }),
  shuffle: fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: 16, maxLength: 16 }),
});

describe(`returns over random orders through HTTP (FC_SEED=${seed})`, () => {
  let t: TestApp;
  let transportId: number;
  let ops: string;

  before(async () => {
    t = await startTestApp();
    transportId = await makeTransport(t.app.db, { price: 500 });
    ops = await adminToken(t.app, [6]);
    await setStoredSetting(t.app.db, 'loyalty_reward_cash_per_unit', 1);
  });
  after(async () => t.close());

  test('when every unit comes back in random returns, then refunds never pass what was paid and end at each line’s exact share', async () => {
    await fc.assert(
      fc.asyncProperty(anOrder, async (spec) => {
        const products: number[] = [];
        for (const l of spec.lines)
          products.push(await makeProduct(t.app.db, { price: l.price, vatRate: l.vatRate }));
        const customer = await makeCustomer(t.app, spec.points);
        const me = { token: customer.token };
        await fillCart(
          t.app,
          me,
          spec.lines.map((l, i) => [products[i], l.qty]),
        );
        if (spec.coupon) {
          const coupon = await makeCoupon(t.app.db, spec.coupon);
          await call(t.app, 'POST', '/rest/cart/coupon', me, { code: coupon.code });
        }
        const placed = await placeOrder(t.app, me, {
          transportId,
          payWay: 'card',
          redeemPoints: spec.points > 0,
        });
        assert.equal(placed.statusCode, 201, placed.body);
        let order = placed.json().data as Order;
        const path = `/rest/order/order/${order.id}`;
        for (const to of ['confirmed', 'shipped'])
          await call(t.app, 'POST', `${path}/transition`, { token: ops }, { to });
        order = (await call(t.app, 'POST', `${path}/payment`, { token: ops }, {})).json().data;
        const paid = toCents(order.paid);

        const chunks: { lineId: number; qty: number }[] = [];
        for (const line of order.lines) {
          let left = line.qty;
          for (let i = 0; left > 0; i++) {
            const qty = Math.min(left, spec.parts[i % spec.parts.length]);
            chunks.push({ lineId: line.id, qty });
            left -= qty;
          }
        }
        const keyed = chunks.map((c, i) => ({ c, key: spec.shuffle[i % 16] * 100 + i }));
        keyed.sort((a, b) => a.key - b.key);
        for (const { c } of keyed) {
          const res = await call(
            t.app,
            'POST',
            `${path}/return`,
            { token: ops },
            {
              lines: [{ orderLineId: c.lineId, qty: c.qty }],
              restock: false,
            },
          );
          assert.equal(res.statusCode, 201, res.body);
          order = res.json().data;
          const refunded = toCents(order.refunded);
          assert.ok(refunded <= paid, `refunded ${refunded} > paid ${paid}`);
          assert.equal(
            refunded,
            order.returns.reduce((s, r) => s + toCents(r.amount), 0),
          );
        }

        // Everything is back: each line's refund against its exact proportional share.
        const gross = order.lines.map((l) => toCents(l.lineTotal));
        const G = gross.reduce((a, b) => a + b, 0);
        const C = Math.min(toCents(order.totals.couponDiscount), G);
        const P = Math.min(toCents(order.totals.pointsCash), G - C);
        const byLine = new Map<number, number>();
        for (const r of order.returns)
          for (const l of r.lines)
            byLine.set(l.orderLineId, (byLine.get(l.orderLineId) ?? 0) + toCents(l.amount));
        order.lines.forEach((line, i) => {
          const afterCoupon = gross[i] - (C * gross[i]) / G;
          const exact = afterCoupon - (G - C === 0 ? 0 : (P * afterCoupon) / (G - C));
          const refund = byLine.get(line.id) ?? 0;
          assert.ok(refund <= gross[i], `line ${i}: ${refund} > gross ${gross[i]}`);
          assert.ok(Math.abs(refund - exact) < 2, `line ${i}: refund ${refund}, exact share ${exact}`);
        });
        assert.equal(toCents(order.refunded), G - C - P, 'what was paid for the goods, to the cent');
        const points = order.returns.reduce((s, r) => s + r.points, 0);
        assert.ok(points <= order.pointsSpent);
        const [{ balance }] = await queryRows<{ balance: number }>(
          t.app.db,
          sql`select loyalty_points as balance from customer where id = ${customer.id}`,
        );
        assert.equal(balance, spec.points - order.pointsSpent + points, 'the ledger of points adds up');
      }),
      { numRuns, seed },
    );
  });
});
