import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/db/client.ts';
import { testProviderSecret } from '../../src/modules/payments/providers/test.ts';
import { signEvent } from '../../src/modules/payments/signature.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { setStoredSetting } from '../helpers/catalog-factories.ts';
import {
  call,
  fillCart,
  makeCoupon,
  makeCustomer,
  makeProduct,
  makeTransport,
  placeOrder,
  type Who,
} from '../checkout/fixtures.ts';

// Unpaid card orders are cancelled by the job queue after payments.pendingTimeoutMinutes through
// the one cancel path; a success arriving later is refunded to the card and recorded.
describe('card payments: unpaid orders time out', () => {
  let t: TestApp;
  let transportId: number;

  before(async () => {
    t = await startTestApp({
      config: {
        jobs: { enabled: true, relayIntervalMs: 20, pollIntervalSeconds: 0.5 },
        payments: { pendingTimeoutMinutes: 5 },
      },
    });
    transportId = await makeTransport(t.app.db, { price: 500 });
    await setStoredSetting(t.app.db, 'loyalty_reward_cash_per_unit', 1);
  });
  after(async () => t.close());

  const one = async <T>(query: ReturnType<typeof sql>) => (await queryRows<T>(t.app.db, query))[0];
  const orderOf = async (who: Who, id: number) =>
    (await call(t.app, 'GET', `/rest/order/order/${id}`, who)).json().data;
  async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, ms = 8000): Promise<T> {
    const end = Date.now() + ms;
    for (;;) {
      const value = await read();
      if (done(value) || Date.now() > end) return value;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  const age = (orderId: number, minutes: number) =>
    t.app.db.execute(
      sql`update sales_order set created_at = now() - make_interval(mins => ${minutes}) where id = ${orderId}`,
    );

  async function couponAndPointsCardOrder() {
    const p = await makeProduct(t.app.db, { price: 3000, stockQty: 10 });
    const coupon = await makeCoupon(t.app.db, { type: 'fixed', value: 500 });
    const customer = await makeCustomer(t.app, 400);
    const who: Who = { token: customer.token };
    await fillCart(t.app, who, [[p, 2]]);
    await call(t.app, 'POST', '/rest/cart/coupon', who, { code: coupon.code });
    const res = await placeOrder(t.app, who, { transportId, payWay: 'card', redeemPoints: true });
    assert.equal(res.statusCode, 201, res.body);
    return { who, customer, p, coupon, order: res.json().data };
  }
  const stockOf = async (p: number) =>
    (await one<{ n: number }>(sql`select stock_qty as n from product where id = ${p}`)).n;
  const pointsOf = async (c: number) =>
    (await one<{ n: number }>(sql`select loyalty_points as n from customer where id = ${c}`)).n;
  const usesOf = async (c: number) =>
    (await one<{ n: number }>(sql`select used_count as n from coupon where id = ${c}`)).n;

  test('when a card order stays unpaid past the timeout, then it is cancelled and gives back stock, coupon use and points', async () => {
    const { who, customer, p, coupon, order } = await couponAndPointsCardOrder();
    assert.deepEqual([await stockOf(p), await pointsOf(customer.id), await usesOf(coupon.id)], [8, 0, 1]);
    const fresh = await couponAndPointsCardOrder();
    await age(order.id, 6);
    await age(fresh.order.id, 4);
    const cancelled = await until(
      () => orderOf(who, order.id),
      (o) => o.status === 'cancelled',
    );
    assert.equal(cancelled.status, 'cancelled');
    assert.equal(cancelled.statusHistory.at(-1).reason, 'not paid within 5 minutes');
    assert.deepEqual([await stockOf(p), await pointsOf(customer.id), await usesOf(coupon.id)], [10, 400, 0]);
    assert.equal(
      (
        await until(
          () => orderOf(who, order.id),
          (o) => o.payment.status === 'canceled',
        )
      ).payment.status,
      'canceled',
    );
    assert.equal((await orderOf(fresh.who, fresh.order.id)).status, 'pending', 'younger than the timeout');
  });

  test('when a success arrives after the order timed out, then the money goes back to the card and is recorded', async () => {
    const { who, order } = await couponAndPointsCardOrder();
    await age(order.id, 6);
    await until(
      () => orderOf(who, order.id),
      (o) => o.status === 'cancelled',
    );
    const raw = JSON.stringify({
      id: `evt_test_late_${order.id}`,
      type: 'payment.succeeded',
      created: Math.floor(Date.now() / 1000),
      data: { intentId: order.payment.intentId, orderId: order.id, amount: 5600, currency: 'eur' },
    });
    assert.equal(order.total, 56);
    const res = await t.app.inject({
      method: 'POST',
      url: '/rest/payments/test/webhook',
      headers: {
        'content-type': 'application/json',
        'test-signature': signEvent(raw, testProviderSecret(t.app.tokens), new Date()),
      },
      payload: raw,
    });
    assert.equal(res.statusCode, 200, res.body);
    const o = await orderOf(who, order.id);
    assert.deepEqual([o.status, o.paymentStatus, o.paid, o.refunded], ['cancelled', 'refunded', 56, 56]);
    assert.equal(o.payment.status, 'succeeded');
    assert.deepEqual(
      o.payment.refunds.map((r: { amount: number; status: string }) => [r.amount, r.status]),
      [[56, 'succeeded']],
    );
    const intent = await one<{ refunded: number }>(
      sql`select refunded from test_payment_intent where id = ${order.payment.intentId}`,
    );
    assert.equal(intent.refunded, 5600);
    const paidEvents = await one<{ n: number }>(
      sql`select count(*)::int as n from outbox_event where type = 'order.paid' and (payload->>'orderId')::int = ${order.id}`,
    );
    assert.equal(paidEvents.n, 0, 'no "payment received" for a cancelled order');
  });
});
