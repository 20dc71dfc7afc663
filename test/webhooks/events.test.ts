import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { body, type TestApp, startTestApp } from '../helpers/app.ts';
import { adminHeaders, setStoredSetting } from '../helpers/catalog-factories.ts';
import { type ReceivedWebhook, startWebhookReceiver } from '../helpers/webhook-receiver.ts';
import {
  adminToken,
  call,
  fillCart,
  makeCustomer,
  makeProduct,
  makeTransport,
  placeOrder,
} from '../checkout/fixtures.ts';

interface Event {
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

describe('webhooks: the events of orders and stock', () => {
  let t: TestApp;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let secret: string;
  let transportId: number;

  before(async () => {
    t = await startTestApp({
      config: {
        jobs: {
          enabled: true,
          retryBaseMs: 50,
          retryMaxMs: 200,
          relayIntervalMs: 50,
          pollIntervalSeconds: 0.5,
        },
      },
    });
    receiver = await startWebhookReceiver();
    const res = await t.app.inject({
      method: 'POST',
      url: '/rest/system/webhook',
      headers: await adminHeaders(t.app, [3]),
      payload: { url: receiver.url, events: ['*'], description: 'everything' },
    });
    assert.equal(res.statusCode, 201, res.body);
    secret = body<{ data: { secret: string } }>(res).data.secret;
    transportId = await makeTransport(t.app.db);
  });
  after(async () => {
    await t.close();
    await receiver.close();
  });

  function eventsOf(received: ReceivedWebhook[]): Event[] {
    const verifier = new Webhook(secret);
    return received.map((r) => verifier.verify(r.body, r.headers as Record<string, string>) as Event);
  }

  async function until(predicate: (events: Event[]) => boolean): Promise<Event[]> {
    await receiver.until((all) => predicate(eventsOf(all)));
    return eventsOf(receiver.received);
  }

  test('when a sale takes stock from 7 to 4 and another to 0, then stock_low once and out_of_stock once, and order.placed', async () => {
    await setStoredSetting(t.app.db, 'stock_low_threshold', 5);
    const product = await makeProduct(t.app.db, { stockQty: 7 });
    const customer = await makeCustomer(t.app);
    await fillCart(t.app, { token: customer.token }, [[product, 3]]);
    const first = await placeOrder(t.app, { token: customer.token }, { transportId });
    assert.equal(first.statusCode, 201, first.body);
    await fillCart(t.app, { token: customer.token }, [[product, 4]]);
    const second = await placeOrder(t.app, { token: customer.token }, { transportId });
    assert.equal(second.statusCode, 201, second.body);
    const ofProduct = (e: Event) => e.data.productId === product;
    const orderId = first.json().data.id;
    // Deliveries run in parallel: each event arrives once, in no guaranteed order.
    const events = await until(
      (all) =>
        all.some((e) => e.type === 'product.out_of_stock' && ofProduct(e)) &&
        all.some((e) => e.type === 'product.stock_low' && ofProduct(e)) &&
        all.some((e) => e.type === 'order.placed' && e.data.orderId === orderId),
    );
    const low = events.filter((e) => e.type === 'product.stock_low' && ofProduct(e));
    assert.equal(low.length, 1);
    assert.equal(low[0].data.stockQty, 4);
    assert.equal(low[0].data.threshold, 5);
    assert.equal(events.filter((e) => e.type === 'product.out_of_stock' && ofProduct(e)).length, 1);
    assert.ok(events.some((e) => e.type === 'order.placed' && e.data.orderId === orderId));
  });

  test('when an order is cancelled, then order.status_changed and order.cancelled are delivered', async () => {
    const product = await makeProduct(t.app.db);
    const customer = await makeCustomer(t.app);
    await fillCart(t.app, { token: customer.token }, [[product, 1]]);
    const placed = await placeOrder(t.app, { token: customer.token }, { transportId });
    const orderId = placed.json().data.id;
    const res = await call(
      t.app,
      'POST',
      `/rest/order/order/${orderId}/transition`,
      { token: await adminToken(t.app) },
      { to: 'cancelled' },
    );
    assert.equal(res.statusCode, 200, res.body);
    // Deliveries run concurrently, so the two events may arrive in either order.
    const events = await until(
      (all) =>
        all.some((e) => e.type === 'order.cancelled' && e.data.orderId === orderId) &&
        all.some((e) => e.type === 'order.status_changed' && e.data.orderId === orderId),
    );
    const changed = events.find((e) => e.type === 'order.status_changed' && e.data.orderId === orderId);
    assert.equal(changed?.data.to, 'cancelled');
  });
});
