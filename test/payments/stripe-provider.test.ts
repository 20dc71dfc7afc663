import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/db/client.ts';
import { stripeProvider } from '../../src/modules/payments/providers/stripe.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { setStoredSetting } from '../helpers/catalog-factories.ts';
import { type StripeEmulator, startStripeEmulator, TEST_METHODS } from '../helpers/stripe-emulator.ts';
import {
  adminToken,
  call,
  fillCart,
  makeCustomer,
  makeProduct,
  makeTransport,
  placeOrder,
  type Who,
} from '../checkout/fixtures.ts';

// The `stripe` provider through Stripe's official client, against a local emulator of its API that
// this test starts: no request leaves the machine. Events are signed the way Stripe signs them.
describe('card payments through Stripe (local emulator)', () => {
  let t: TestApp;
  let stripe: StripeEmulator;
  let transportId: number;
  let ops: string;

  before(async () => {
    stripe = await startStripeEmulator();
    t = await startTestApp({
      config: {
        payments: {
          cardProvider: 'stripe',
          stripe: { secretKey: stripe.secretKey, webhookSecret: stripe.webhookSecret, apiBase: stripe.url },
        },
      },
    });
    transportId = await makeTransport(t.app.db, { price: 490 });
    ops = await adminToken(t.app, [6]);
  });
  after(async () => {
    await t.close();
    await stripe.close();
  });

  async function cardOrder(price = 1999, key?: string) {
    const p = await makeProduct(t.app.db, { price });
    const customer = await makeCustomer(t.app);
    const who: Who = { token: customer.token };
    await fillCart(t.app, who, [[p, 1]]);
    const res = await placeOrder(t.app, who, { transportId, payWay: 'card' }, key);
    assert.equal(res.statusCode, 201, res.body);
    return { who, order: res.json().data, res };
  }
  const postEvent = (raw: string, signature?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/rest/payments/stripe/webhook',
      headers: {
        'content-type': 'application/json',
        ...(signature ? { 'stripe-signature': signature } : {}),
      },
      payload: raw,
    });
  /** Stripe posts its events to the shop's webhook: here the test does, as Stripe would. */
  async function deliverEvents() {
    const answers = [];
    for (const e of stripe.takeEvents()) answers.push((await postEvent(e.raw, e.signature)).statusCode);
    return answers;
  }
  const orderOf = async (who: Who, id: number) =>
    (await call(t.app, 'GET', `/rest/order/order/${id}`, who)).json().data;
  const confirm = (intentId: string, method: string) => {
    const intent = stripe.intents.get(intentId);
    assert.ok(intent);
    return stripe.confirm(intent, method);
  };

  test('when a customer orders by card, then a PaymentIntent for the exact total is created once, even when place-order is retried', async () => {
    const { order, who, res } = await cardOrder(1999, 'stripe-key-1');
    assert.equal(order.payment.provider, 'stripe');
    assert.match(order.payment.intentId, /^pi_/);
    assert.match(order.payment.clientSecret, new RegExp(`^${order.payment.intentId}_secret_`));
    assert.equal(order.payment.status, 'requires_payment_method');
    const intent = stripe.intents.get(order.payment.intentId);
    assert.deepEqual(
      [intent?.amount, intent?.currency, intent?.capture_method, intent?.metadata.orderId],
      [2489, 'eur', 'automatic', String(order.id)],
    );
    const again = await placeOrder(t.app, who, { transportId, payWay: 'card' }, 'stripe-key-1');
    assert.deepEqual(again.json(), res.json());
    const creations = stripe.requests.filter((r) => r.path === '/v1/payment_intents');
    assert.equal(creations.filter((r) => r.idempotencyKey === `order-${order.id}-intent`).length, 1);
  });

  test('when the card is declined and then approved, then the order is paid once, on the succeeded event', async () => {
    const { who, order } = await cardOrder(1234);
    assert.equal(confirm(order.payment.intentId, TEST_METHODS.declines).status, 402);
    assert.deepEqual(await deliverEvents(), [200]);
    const declined = await orderOf(who, order.id);
    assert.deepEqual([declined.paymentStatus, declined.payment.status], ['pending', 'failed']);
    assert.equal(confirm(order.payment.intentId, TEST_METHODS.asksFor3ds).status, 200);
    assert.equal(confirm(order.payment.intentId, TEST_METHODS.approves).status, 200);
    assert.deepEqual(await deliverEvents(), [200]);
    const paid = await orderOf(who, order.id);
    assert.deepEqual([paid.paymentStatus, paid.paid, paid.payment.status], ['paid', 17.24, 'succeeded']);
    assert.equal(paid.payment.attempts, 2, 'one decline, one success');
  });

  test('when an event is forged, unsigned or stale, then 400 and nothing changes; a replay is 200 and changes nothing', async () => {
    const { who, order } = await cardOrder();
    confirm(order.payment.intentId, TEST_METHODS.approves);
    const [event] = stripe.takeEvents();
    const forged = await postEvent(event.raw, stripe.sign(event.raw, undefined, 'whsec_someone_else'));
    assert.equal(forged.statusCode, 400);
    assert.equal(forged.json().error.code, 'PAYMENT_EVENT_INVALID');
    assert.equal((await postEvent(event.raw)).statusCode, 400);
    const stale = stripe.sign(event.raw, Math.floor(Date.now() / 1000) - 6 * 60);
    assert.equal((await postEvent(event.raw, stale)).statusCode, 400);
    assert.equal((await orderOf(who, order.id)).paymentStatus, 'pending');
    assert.deepEqual((await postEvent(event.raw, event.signature)).json().data, {
      received: true,
      duplicate: false,
    });
    const replay = await postEvent(event.raw, event.signature);
    assert.deepEqual([replay.statusCode, replay.json().data.duplicate], [200, true]);
    assert.equal((await orderOf(who, order.id)).paid, 24.89);
  });

  test('when a paid order is cancelled, then Stripe refunds the exact total under the order refund key', async () => {
    const { who, order } = await cardOrder(1999);
    confirm(order.payment.intentId, TEST_METHODS.approves);
    await deliverEvents();
    const res = await call(
      t.app,
      'POST',
      `/rest/order/order/${order.id}/transition`,
      { token: ops },
      {
        to: 'cancelled',
      },
    );
    assert.equal(res.statusCode, 200, res.body);
    const o = await orderOf(who, order.id);
    assert.deepEqual([o.paymentStatus, o.refunded], ['refunded', 24.89]);
    assert.deepEqual(
      o.payment.refunds.map((r: { amount: number; status: string }) => [r.amount, r.status]),
      [[24.89, 'succeeded']],
    );
    const refunds = stripe.refunds.filter((r) => r.payment_intent === order.payment.intentId);
    assert.deepEqual(
      refunds.map((r) => [r.amount, r.idempotencyKey]),
      [[2489, `order-${order.id}-refund-1`]],
    );
    assert.equal(o.payment.refunds[0].providerRefundId, refunds[0].id);
  });

  test('when Stripe refuses a call, then 502 PAYMENT_PROVIDER_FAILED and the order is left as it was', async () => {
    const p = await makeProduct(t.app.db, { price: 1000, stockQty: 5 });
    const customer = await makeCustomer(t.app);
    const who: Who = { token: customer.token };
    await fillCart(t.app, who, [[p, 1]]);
    const placed = await placeOrder(t.app, who, { transportId, payWay: 'card' });
    const order = placed.json().data;
    // Paid at Stripe, its event not delivered yet: the shop still sees an open intent.
    confirm(order.payment.intentId, TEST_METHODS.approves);
    const cancel = await call(t.app, 'POST', `/rest/order/order/${order.id}/cancel`, who, {});
    assert.equal(cancel.statusCode, 502, cancel.body);
    assert.equal(cancel.json().error.code, 'PAYMENT_PROVIDER_FAILED');
    const still = await orderOf(who, order.id);
    assert.deepEqual([still.status, still.statusHistory.length], ['pending', 1]);
    const [{ n }] = await queryRows<{ n: number }>(
      t.app.db,
      sql`select stock_qty as n from product where id = ${p}`,
    );
    assert.equal(n, 4, 'the stock stays taken');
    assert.deepEqual(await deliverEvents(), [200]);
    assert.equal((await orderOf(who, order.id)).paymentStatus, 'paid');
  });

  test('when capture is manual, then Stripe holds the money at the order and captures it at the first shipment', async () => {
    await setStoredSetting(t.app.db, 'payment_capture_mode', 'manual');
    try {
      const { who, order } = await cardOrder(2000);
      assert.equal(stripe.intents.get(order.payment.intentId)?.capture_method, 'manual');
      confirm(order.payment.intentId, TEST_METHODS.approves);
      await deliverEvents();
      assert.equal((await orderOf(who, order.id)).paymentStatus, 'authorized');
      const path = `/rest/order/order/${order.id}`;
      await call(t.app, 'POST', `${path}/transition`, { token: ops }, { to: 'confirmed' });
      const shipped = await call(
        t.app,
        'POST',
        `${path}/shipment`,
        { token: ops },
        {
          carrier: 'ACS',
          trackingNumber: 'S1',
        },
      );
      assert.equal(shipped.statusCode, 200, shipped.body);
      const capture = stripe.requests.find((r) => r.path.endsWith(`${order.payment.intentId}/capture`));
      assert.equal(capture?.idempotencyKey, `order-${order.id}-capture`);
      assert.deepEqual(await deliverEvents(), [200]);
      const paid = await orderOf(who, order.id);
      assert.deepEqual([paid.paymentStatus, paid.paid], ['paid', 24.9]);
    } finally {
      await setStoredSetting(t.app.db, 'payment_capture_mode', 'automatic');
    }
  });

  test('when a refund is retried with its idempotency key, then Stripe refunds once', async () => {
    const { order } = await cardOrder(1000);
    confirm(order.payment.intentId, TEST_METHODS.approves);
    stripe.takeEvents();
    const provider = stripeProvider({
      secretKey: stripe.secretKey,
      webhookSecret: stripe.webhookSecret,
      apiBase: stripe.url,
    });
    const first = await provider.refund(order.payment.intentId, 500, 'retry-key');
    const second = await provider.refund(order.payment.intentId, 500, 'retry-key');
    assert.equal(second.providerRefundId, first.providerRefundId);
    assert.equal(stripe.refunds.filter((r) => r.payment_intent === order.payment.intentId).length, 1);
  });
});
