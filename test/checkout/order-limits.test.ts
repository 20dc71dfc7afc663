import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ADDRESS, fillCart, makeCustomer, makeProduct, makeTransport, type Who } from './fixtures.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

// Place-order attempts per window: guests per address, customers per account. Small limits keep
// the test fast.
const ORDERS = 3;

describe('place-order: attempts per address (guests) and per customer', () => {
  let t: TestApp;
  let transportId: number;
  let productId: number;

  before(async () => {
    t = await startTestApp({
      config: {
        rateLimit: {
          enabled: true,
          placeOrderPerIp: ORDERS,
          placeOrderPerCustomer: ORDERS,
          windowSeconds: 60,
        },
      },
    });
    transportId = await makeTransport(t.app.db);
    productId = await makeProduct(t.app.db, { stockQty: 1000 });
  });
  after(async () => t.close());

  const order = (ip: string, who: Who, key?: string) => {
    const headers: Record<string, string> = {};
    if (who.token) headers.authorization = `Bearer ${who.token}`;
    if (who.cart) headers['x-cart-token'] = who.cart;
    if (key) headers['idempotency-key'] = key;
    return t.app.inject({
      method: 'POST',
      url: '/rest/checkout/place-order',
      remoteAddress: ip,
      headers,
      payload: { ...ADDRESS, transportId, email: 'guest@example.com' },
    });
  };
  const guestCart = () => fillCart(t.app, {}, [[productId, 1]]);

  test('when one address places more guest orders than allowed, then the next is 429 with Retry-After and another address still orders', async () => {
    const ip = '10.4.0.1';
    for (let i = 0; i < ORDERS; i++) assert.equal((await order(ip, await guestCart())).statusCode, 201);
    const refused = await order(ip, await guestCart());
    assert.equal(refused.statusCode, 429, refused.body);
    assert.equal(refused.json().error.code, 'RATE_LIMITED');
    assert.ok(Number(refused.headers['retry-after']) > 0);
    assert.equal((await order('10.4.0.2', await guestCart())).statusCode, 201);
  });

  test('when a customer places more orders than allowed, then the next is 429 from any address; another customer at that address still orders', async () => {
    const ada = { token: (await makeCustomer(t.app)).token };
    for (let i = 0; i < ORDERS; i++) {
      await fillCart(t.app, ada, [[productId, 1]]);
      assert.equal((await order(`10.4.1.${i}`, ada)).statusCode, 201);
    }
    await fillCart(t.app, ada, [[productId, 1]]);
    const refused = await order('10.4.1.99', ada);
    assert.equal(refused.statusCode, 429, refused.body);
    const bob = { token: (await makeCustomer(t.app)).token };
    await fillCart(t.app, bob, [[productId, 1]]);
    assert.equal((await order('10.4.1.0', bob)).statusCode, 201);
  });

  test('when an order is retried with its Idempotency-Key, then the replays do not count', async () => {
    const ip = '10.4.2.1';
    const first = await guestCart();
    assert.equal((await order(ip, first, 'retry-me')).statusCode, 201);
    for (let i = 0; i < ORDERS; i++) {
      const replay = await order(ip, first, 'retry-me');
      assert.equal(replay.statusCode, 201);
      assert.equal(replay.headers['idempotent-replayed'], 'true');
    }
    for (let i = 1; i < ORDERS; i++) assert.equal((await order(ip, await guestCart())).statusCode, 201);
    assert.equal((await order(ip, await guestCart())).statusCode, 429);
  });
});
