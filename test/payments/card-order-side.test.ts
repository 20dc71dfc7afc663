import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/db/client.ts';
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
  type Who,
} from '../checkout/fixtures.ts';

const APPROVES = '4242424242424242';

// The order's side of a card payment, through HTTP: the order shows its payment, manual capture
// authorizes at the order and captures at the first shipment, a cancellation voids or refunds, a
// return refunds to the card exactly what docs/orders.md computes, and order.paid mails the customer.
describe("card payments: the order's side", () => {
  let t: TestApp;
  let transportId: number;
  let ops: string;

  before(async () => {
    t = await startTestApp({
      config: { jobs: { enabled: true, relayIntervalMs: 20, pollIntervalSeconds: 0.5 } },
    });
    transportId = await makeTransport(t.app.db, { price: 500 });
    ops = await adminToken(t.app, [6]);
    await setStoredSetting(t.app.db, 'loyalty_reward_cash_per_unit', 1);
  });
  after(async () => t.close());

  const admin = (method: 'GET' | 'POST', path: string, body?: unknown) =>
    call(t.app, method, path, { token: ops }, body);
  const orderOf = async (who: Who, id: number) =>
    (await call(t.app, 'GET', `/rest/order/order/${id}`, who)).json().data;

  async function cardOrder(lines: [number, number][], points = 0, coupon?: string) {
    const customer = await makeCustomer(t.app, points);
    const who: Who = { token: customer.token };
    await fillCart(t.app, who, lines);
    if (coupon) await call(t.app, 'POST', '/rest/cart/coupon', who, { code: coupon });
    const res = await placeOrder(t.app, who, { transportId, payWay: 'card', redeemPoints: points > 0 });
    assert.equal(res.statusCode, 201, res.body);
    return { who, customer, order: res.json().data };
  }
  async function payByCard(who: Who, intentId: string) {
    const res = await call(t.app, 'POST', '/rest/payments/test/confirm', who, {
      intentId,
      cardNumber: APPROVES,
    });
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data;
  }
  /** Events reach the order through the job queue: polls until the order's payment says `status`. */
  async function paymentBecomes(who: Who, id: number, status: string, cardStatus?: string) {
    const until = Date.now() + 5000;
    for (;;) {
      const order = await orderOf(who, id);
      const settled = order.paymentStatus === status && (!cardStatus || order.payment?.status === cardStatus);
      if (settled || Date.now() > until) return order;
      await new Promise((r) => setTimeout(r, 25));
    }
  }
  const intentRow = async (intentId: string) =>
    (
      await queryRows<{ status: string; refunded: number }>(
        t.app.db,
        sql`select status, refunded from test_payment_intent where id = ${intentId}`,
      )
    )[0];

  test("when a customer reads their card order, then it shows the payment; the back office's read too", async () => {
    const p = await makeProduct(t.app.db, { price: 1999 });
    const { who, order } = await cardOrder([[p, 1]]);
    const mine = await orderOf(who, order.id);
    assert.deepEqual(mine.payment, order.payment);
    assert.deepEqual(mine.payment.refunds, []);
    const shown = (await admin('GET', `/rest/order/order/${order.id}`)).json().data;
    assert.equal(shown.payment.intentId, order.payment.intentId);
  });

  test('when a card pays, then order.paid is recorded once and the customer gets a "payment received" e-mail', async () => {
    const p = await makeProduct(t.app.db, { price: 1234 });
    const { who, order, customer } = await cardOrder([[p, 1]]);
    await payByCard(who, order.payment.intentId);
    const paid = await paymentBecomes(who, order.id, 'paid');
    assert.equal(paid.paid, 17.34);
    const events = await queryRows<{ amount: number; currency: string }>(
      t.app.db,
      sql`select (payload->>'amount')::int as amount, payload->>'currency' as currency from outbox_event
          where type = 'order.paid' and (payload->>'orderId')::int = ${order.id}`,
    );
    assert.deepEqual(events, [{ amount: 1734, currency: 'EUR' }]);
    const until = Date.now() + 5000;
    let mails: { subject: string; text: string }[] = [];
    while (mails.length === 0 && Date.now() < until) {
      mails = await queryRows(
        t.app.db,
        sql`select subject, text_body as text from mail_message
            where template = 'payment_received' and to_address = ${customer.email}`,
      );
      if (mails.length === 0) await new Promise((r) => setTimeout(r, 25));
    }
    assert.equal(mails.length, 1);
    assert.match(mails[0].subject, new RegExp(order.number));
    assert.match(mails[0].text, /17\.34 EUR/);
  });

  test('when capture is manual, then the card authorizes, the first shipment captures and the order is paid', async () => {
    await setStoredSetting(t.app.db, 'payment_capture_mode', 'manual');
    try {
      const p = await makeProduct(t.app.db, { price: 2000 });
      const { who, order } = await cardOrder([[p, 1]]);
      assert.equal((await payByCard(who, order.payment.intentId)).status, 'authorized');
      const held = await paymentBecomes(who, order.id, 'authorized', 'authorized');
      assert.deepEqual([held.paymentStatus, held.paid, held.payment.status], ['authorized', 0, 'authorized']);
      const path = `/rest/order/order/${order.id}`;
      assert.equal((await admin('POST', `${path}/transition`, { to: 'confirmed' })).statusCode, 200);
      const shipped = await admin('POST', `${path}/shipment`, { carrier: 'ACS', trackingNumber: 'A1' });
      assert.equal(shipped.statusCode, 200, shipped.body);
      const paid = await paymentBecomes(who, order.id, 'paid', 'succeeded');
      assert.deepEqual([paid.paymentStatus, paid.paid, paid.payment.status], ['paid', 25, 'succeeded']);
      assert.equal(paid.payment.attempts, 1, 'the capture is no second try');
      assert.equal((await intentRow(order.payment.intentId)).status, 'succeeded');
    } finally {
      await setStoredSetting(t.app.db, 'payment_capture_mode', 'automatic');
    }
  });

  test('when the back office captures an authorized order, then the provider captures and the order is paid; anything else is 409', async () => {
    await setStoredSetting(t.app.db, 'payment_capture_mode', 'manual');
    try {
      const p = await makeProduct(t.app.db, { price: 1500 });
      const { who, order } = await cardOrder([[p, 1]]);
      const path = `/rest/order/order/${order.id}/capture`;
      const early = await admin('POST', path);
      assert.deepEqual([early.statusCode, early.json().error.code], [409, 'ILLEGAL_TRANSITION']);
      await payByCard(who, order.payment.intentId);
      await paymentBecomes(who, order.id, 'authorized', 'authorized');
      const captured = await admin('POST', path);
      assert.equal(captured.statusCode, 200, captured.body);
      const paid = await paymentBecomes(who, order.id, 'paid', 'succeeded');
      assert.deepEqual([paid.paymentStatus, paid.paid], ['paid', 20]);
      assert.equal((await admin('POST', path)).statusCode, 409, 'captured once');
      const customer = await call(t.app, 'POST', path, who);
      assert.equal(customer.statusCode, 403);
    } finally {
      await setStoredSetting(t.app.db, 'payment_capture_mode', 'automatic');
    }
  });

  test('when an authorized order is cancelled, then the authorization is voided and nothing is refunded', async () => {
    await setStoredSetting(t.app.db, 'payment_capture_mode', 'manual');
    try {
      const p = await makeProduct(t.app.db, { price: 2000 });
      const { who, order } = await cardOrder([[p, 1]]);
      await payByCard(who, order.payment.intentId);
      await paymentBecomes(who, order.id, 'authorized', 'authorized');
      const cancelled = await call(t.app, 'POST', `/rest/order/order/${order.id}/cancel`, who, {});
      assert.equal(cancelled.statusCode, 200, cancelled.body);
      const after = await paymentBecomes(who, order.id, 'authorized', 'canceled');
      assert.deepEqual([after.status, after.payment.status, after.refunded], ['cancelled', 'canceled', 0]);
      assert.deepEqual(after.payment.refunds, []);
      assert.equal((await intentRow(order.payment.intentId)).status, 'canceled');
    } finally {
      await setStoredSetting(t.app.db, 'payment_capture_mode', 'automatic');
    }
  });

  test('when a paid card order is cancelled, then the whole total goes back to the card, once', async () => {
    const p = await makeProduct(t.app.db, { price: 1999, stockQty: 10 });
    const { who, order } = await cardOrder([[p, 1]]);
    await payByCard(who, order.payment.intentId);
    await paymentBecomes(who, order.id, 'paid');
    const res = await admin('POST', `/rest/order/order/${order.id}/transition`, { to: 'cancelled' });
    assert.equal(res.statusCode, 200, res.body);
    const o = res.json().data;
    assert.deepEqual([o.paymentStatus, o.refunded], ['refunded', 24.99]);
    assert.equal(o.payment.refunds.length, 1);
    assert.equal(o.payment.refunds[0].amount, 24.99);
    assert.equal(o.payment.refunds[0].status, 'succeeded');
    assert.match(o.payment.refunds[0].providerRefundId, /^re_test_/);
    assert.equal((await intentRow(order.payment.intentId)).refunded, 2499);
  });

  test('when a paid card order is returned in two parts, then each part goes back to the card to the cent', async () => {
    const a = await makeProduct(t.app.db, { price: 1000, stockQty: 10 });
    const b = await makeProduct(t.app.db, { price: 2001, stockQty: 10 });
    const coupon = await makeCoupon(t.app.db, { type: 'fixed', value: 500 });
    const { who, order } = await cardOrder(
      [
        [a, 3],
        [b, 1],
      ],
      400,
      coupon.code,
    );
    assert.equal(order.total, 46.01);
    await payByCard(who, order.payment.intentId);
    await paymentBecomes(who, order.id, 'paid');
    const path = `/rest/order/order/${order.id}`;
    await admin('POST', `${path}/transition`, { to: 'confirmed' });
    await admin('POST', `${path}/shipment`, { carrier: 'ACS', trackingNumber: 'A2' });
    const [lineA, lineB] = order.lines;
    const first = await admin('POST', `${path}/return`, {
      lines: [{ orderLineId: lineA.id, qty: 1 }],
      restock: true,
    });
    assert.equal(first.statusCode, 201, first.body);
    const rest = await admin('POST', `${path}/return`, {
      lines: [
        { orderLineId: lineA.id, qty: 2 },
        { orderLineId: lineB.id, qty: 1 },
      ],
      restock: true,
    });
    const o = rest.json().data;
    // The amounts docs/orders.md computes (test/orders/after-order.test.ts): 8.20, then 16.40 + 16.41.
    assert.deepEqual(
      o.payment.refunds.map((r: { amount: number }) => r.amount),
      [8.2, 32.81],
    );
    assert.equal(o.refunded, 41.01);
    assert.equal((await intentRow(order.payment.intentId)).refunded, 4101);
    const keys = await queryRows<{ keys: string[] }>(
      t.app.db,
      sql`select refund_keys as keys from test_payment_intent where id = ${order.payment.intentId}`,
    );
    assert.deepEqual(keys[0].keys, [`order-${order.id}-refund-1`, `order-${order.id}-refund-2`]);
  });
});
