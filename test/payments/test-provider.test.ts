import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/db/client.ts';
import { testProviderSecret } from '../../src/modules/payments/providers/test.ts';
import { signEvent } from '../../src/modules/payments/signature.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import {
  call,
  fillCart,
  makeCustomer,
  makeProduct,
  makeTransport,
  placeOrder,
  type Who,
} from '../checkout/fixtures.ts';

const APPROVES = '4242424242424242';
const DECLINES = '4000000000000002';
const ASKS_3DS = '4000002500003155';

describe('card payments through the test provider', () => {
  let t: TestApp;
  let transportId: number;

  before(async () => {
    t = await startTestApp({
      config: { jobs: { enabled: true, relayIntervalMs: 20, pollIntervalSeconds: 0.5 } },
    });
    transportId = await makeTransport(t.app.db, { price: 490 });
  });
  after(async () => t.close());

  async function cardOrder(price = 1999, key?: string) {
    const p = await makeProduct(t.app.db, { price });
    const ada = await makeCustomer(t.app);
    const who: Who = { token: ada.token };
    await fillCart(t.app, who, [[p, 1]]);
    const res = await placeOrder(t.app, who, { transportId, payWay: 'card' }, key);
    assert.equal(res.statusCode, 201, res.body);
    return { who, order: res.json().data, res };
  }
  const step = (who: Who, path: string, body: Record<string, unknown>) =>
    call(t.app, 'POST', `/rest/payments/test/${path}`, who, body);
  const orderOf = async (who: Who, id: number) =>
    (await call(t.app, 'GET', `/rest/order/order/${id}`, who)).json().data;
  /** The event is delivered by the job queue: the order is paid within 5 s of the provider's success. */
  async function paidWithin(who: Who, id: number, ms = 5000) {
    const until = Date.now() + ms;
    for (;;) {
      const order = await orderOf(who, id);
      if (order.paymentStatus === 'paid' || Date.now() > until) return order;
      await new Promise((r) => setTimeout(r, 25));
    }
  }
  const cardStatus = async (orderId: number) =>
    (
      await queryRows<{ status: string }>(
        t.app.db,
        sql`select status from card_payment where order_id = ${orderId}`,
      )
    )[0]?.status;
  function signed(payload: Record<string, unknown>, at = new Date()) {
    const raw = JSON.stringify(payload);
    return { raw, signature: signEvent(raw, testProviderSecret(t.app.tokens), at) };
  }
  const postEvent = (raw: string, signature?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/rest/payments/test/webhook',
      headers: { 'content-type': 'application/json', ...(signature ? { 'test-signature': signature } : {}) },
      payload: raw,
    });

  test('when a customer orders by card, then 201 with the order pending and an intent for the exact total', async () => {
    const { order } = await cardOrder(1999);
    assert.equal(order.status, 'pending');
    assert.equal(order.paymentStatus, 'pending');
    assert.equal(order.total, 24.89);
    assert.equal(order.payment.provider, 'test');
    assert.match(order.payment.intentId, /^pi_test_/);
    assert.match(order.payment.clientSecret, /^pi_secret_/);
    assert.equal(order.payment.status, 'requires_payment_method');
    const [intent] = await queryRows<{ amount: number; currency: string }>(
      t.app.db,
      sql`select amount, currency from test_payment_intent where id = ${order.payment.intentId}`,
    );
    assert.deepEqual(intent, { amount: 2489, currency: 'eur' });
  });

  test('when the card approves, then the signed event arrives through the webhook and the order is paid', async () => {
    const { who, order } = await cardOrder(1234);
    const res = await step(who, 'confirm', { intentId: order.payment.intentId, cardNumber: APPROVES });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json().data, { status: 'succeeded', nextAction: null, declineCode: null });
    const paid = await paidWithin(who, order.id);
    assert.equal(paid.paymentStatus, 'paid');
    assert.equal(paid.paid, 17.24);
    assert.equal(await cardStatus(order.id), 'succeeded');
  });

  test('when the card declines, then the intent stays payable and another card pays it', async () => {
    const { who, order } = await cardOrder();
    const declined = await step(who, 'confirm', { intentId: order.payment.intentId, cardNumber: DECLINES });
    assert.deepEqual(declined.json().data, {
      status: 'requires_payment_method',
      nextAction: null,
      declineCode: 'card_declined',
    });
    const retry = await step(who, 'confirm', { intentId: order.payment.intentId, cardNumber: APPROVES });
    assert.equal(retry.json().data.status, 'succeeded');
    assert.equal((await paidWithin(who, order.id)).paymentStatus, 'paid');
  });

  test('when the card asks for 3-D Secure, then a failed authentication leaves it payable and a passed one pays', async () => {
    const { who, order } = await cardOrder();
    const intentId = order.payment.intentId;
    const asked = (await step(who, 'confirm', { intentId, cardNumber: ASKS_3DS })).json().data;
    assert.equal(asked.status, 'requires_action');
    assert.equal(asked.nextAction.type, 'redirect');
    const failed = (await step(who, 'authenticate', { intentId, outcome: 'fail' })).json().data;
    assert.equal(failed.status, 'requires_payment_method');
    assert.equal(failed.declineCode, 'authentication_failed');
    const again = await step(who, 'confirm', { intentId, cardNumber: ASKS_3DS });
    assert.equal(again.json().data?.status, 'requires_action', again.body);
    const pass = await step(who, 'authenticate', { intentId, outcome: 'pass' });
    assert.equal(pass.statusCode, 200, pass.body);
    const passed = pass.json().data;
    assert.equal(passed.status, 'succeeded');
    assert.equal((await paidWithin(who, order.id)).paymentStatus, 'paid');
  });

  test("when someone else confirms a customer's intent, then 404 and nothing changes", async () => {
    const { order } = await cardOrder();
    const bob = await makeCustomer(t.app);
    const theirs = await step({ token: bob.token }, 'confirm', {
      intentId: order.payment.intentId,
      cardNumber: APPROVES,
    });
    assert.equal(theirs.statusCode, 404);
    assert.equal(theirs.json().error.code, 'NOT_FOUND');
    const guest = await step({}, 'confirm', { intentId: order.payment.intentId, cardNumber: APPROVES });
    assert.equal(guest.statusCode, 404, guest.body);
    assert.equal(await cardStatus(order.id), 'requires_payment_method');
  });

  test('when place-order is retried with its Idempotency-Key, then the same intent is answered and only one exists', async () => {
    const { who, order, res } = await cardOrder(1500, 'card-key-1');
    const again = await placeOrder(t.app, who, { transportId, payWay: 'card' }, 'card-key-1');
    assert.deepEqual(again.json(), res.json());
    const [{ n }] = await queryRows<{ n: number }>(
      t.app.db,
      sql`select count(*)::int as n from test_payment_intent where order_id = ${order.id}`,
    );
    assert.equal(n, 1);
  });

  test('when an event is forged, unsigned or older than 5 minutes, then 400 and nothing changes; a replay is 200 and changes nothing', async () => {
    const { who, order } = await cardOrder();
    const payload = {
      id: `evt_test_forge_${order.id}`,
      type: 'payment.succeeded',
      created: Math.floor(Date.now() / 1000),
      data: { intentId: order.payment.intentId, orderId: order.id, amount: 2489, currency: 'eur' },
    };
    const { raw, signature } = signed(payload);
    const forged = await postEvent(
      raw,
      signature.replace(/v1=(.)/, (_, c) => `v1=${c === '0' ? '1' : '0'}`),
    );
    assert.equal(forged.statusCode, 400);
    assert.equal(forged.json().error.code, 'PAYMENT_EVENT_INVALID');
    assert.equal((await postEvent(raw)).statusCode, 400);
    const old = signed(payload, new Date(Date.now() - 6 * 60_000));
    assert.equal((await postEvent(old.raw, old.signature)).statusCode, 400);
    assert.equal((await orderOf(who, order.id)).paymentStatus, 'pending');

    const first = await postEvent(raw, signature);
    assert.deepEqual(first.json().data, { received: true, duplicate: false });
    assert.equal((await orderOf(who, order.id)).paymentStatus, 'paid');
    const replay = await postEvent(raw, signature);
    assert.equal(replay.statusCode, 200);
    assert.deepEqual(replay.json().data, { received: true, duplicate: true });
  });

  test('when the amount or currency differs from the order, then the payment is mismatch and the order never paid', async () => {
    const { who, order } = await cardOrder();
    for (const [i, data] of [
      { amount: 2488, currency: 'eur' },
      { amount: 2489, currency: 'usd' },
    ].entries()) {
      const { raw, signature } = signed({
        id: `evt_test_mismatch_${order.id}_${i}`,
        type: 'payment.succeeded',
        created: Math.floor(Date.now() / 1000),
        data: { intentId: order.payment.intentId, orderId: order.id, ...data },
      });
      assert.equal((await postEvent(raw, signature)).statusCode, 200);
    }
    assert.equal((await orderOf(who, order.id)).paymentStatus, 'pending');
    assert.equal(await cardStatus(order.id), 'mismatch');
  });

  test('when succeeded and failed events for one order arrive at once, then one consistent payment: paid once', async () => {
    const { who, order } = await cardOrder();
    const at = Math.floor(Date.now() / 1000);
    const events = ['payment.succeeded', 'payment.succeeded', 'payment.failed'].map((type, i) =>
      signed({
        id: `evt_test_race_${order.id}_${i}`,
        type,
        created: at,
        data: { intentId: order.payment.intentId, orderId: order.id, amount: 2489, currency: 'eur' },
      }),
    );
    const answers = await Promise.all(events.map((e) => postEvent(e.raw, e.signature)));
    assert.deepEqual(
      answers.map((a) => a.statusCode),
      [200, 200, 200],
    );
    const after = await orderOf(who, order.id);
    assert.equal(after.paymentStatus, 'paid');
    assert.equal(after.paid, 24.89);
    assert.equal(await cardStatus(order.id), 'succeeded');
  });

  test('when a webhook body is over 1 MiB, then 413', async () => {
    const res = await postEvent(JSON.stringify({ pad: 'x'.repeat(1024 * 1024) }), 't=1,v1=00');
    assert.equal(res.statusCode, 413);
  });
});
