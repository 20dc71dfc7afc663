import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { queryRows } from '../../src/db/client.ts';
import {
  ADDRESS,
  adminToken,
  call,
  fillCart,
  makeCustomer,
  makeProduct,
  makeTransport,
  totals,
  type Who,
} from './fixtures.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

// Place-order attempts per window: guests per address, customers per account. Small limits keep
// the test fast. Then the caps on one order: units (order_max_units) and the total paid cash on
// delivery (cod_max_total), at totals and at place-order.
const ORDERS = 3;

describe('place-order: attempts per address (guests) and per customer; caps on one order', () => {
  let t: TestApp;
  let transportId: number;
  let productId: number;
  let freeTransport: number;
  let admin: Who;

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
    // No shipping and no cash-on-delivery fee: the total is the goods, to the cent.
    freeTransport = await makeTransport(t.app.db, { price: 0, codFee: 0 });
    admin = { token: await adminToken(t.app, [3]) };
  });
  after(async () => t.close());

  const order = (ip: string, who: Who, key?: string, extra: Record<string, unknown> = {}) => {
    const headers: Record<string, string> = {};
    if (who.token) headers.authorization = `Bearer ${who.token}`;
    if (who.cart) headers['x-cart-token'] = who.cart;
    if (key) headers['idempotency-key'] = key;
    return t.app.inject({
      method: 'POST',
      url: '/rest/checkout/place-order',
      remoteAddress: ip,
      headers,
      payload: { ...ADDRESS, transportId, email: 'guest@example.com', ...extra },
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

  const stock = async (id: number) =>
    (await queryRows<{ s: number }>(t.app.db, sql`select stock_qty as s from product where id = ${id}`))[0].s;
  const orderCount = async () =>
    (await queryRows<{ n: number }>(t.app.db, sql`select count(*)::int as n from sales_order`))[0].n;
  // Each guest attempt from an address of its own: the caps, not the attempts per window, answer.
  let lastIp = 0;
  const placeOrder = (who: Who, body: Record<string, unknown>) =>
    order(`10.5.0.${++lastIp}`, who, undefined, { transportId: freeTransport, ...body });

  test('when a cash-on-delivery total is above cod_max_total (500.00), then totals and place-order answer 422 LIMIT_REACHED, nothing is written; 500.00 passes and other payments are not capped', async () => {
    const atLimit = await makeProduct(t.app.db, { price: 50_000, stockQty: 10 });
    const above = await makeProduct(t.app.db, { price: 50_001, stockQty: 10 });
    const cod = { transportId: freeTransport, payWay: 'delivery' };

    const big = await fillCart(t.app, {}, [[above, 1]]);
    const quoted = await totals(t.app, big, cod);
    assert.equal(quoted.statusCode, 422, quoted.body);
    assert.equal(quoted.json().error.code, 'LIMIT_REACHED');
    assert.match(quoted.json().error.message, /500\.00 \(cod_max_total\)/);
    const ordersBefore = await orderCount();
    const refused = await placeOrder(big, cod);
    assert.equal(refused.statusCode, 422, refused.body);
    assert.equal(refused.json().error.code, 'LIMIT_REACHED');
    assert.match(refused.json().error.message, /cod_max_total/);
    assert.equal(await orderCount(), ordersBefore);
    assert.equal(await stock(above), 10);
    assert.equal((await call(t.app, 'GET', '/rest/cart', big)).json().data.itemCount, 1);

    assert.equal((await totals(t.app, big, { ...cod, payWay: 'card' })).statusCode, 200);
    assert.equal((await placeOrder(big, { payWay: 'bank_transfer' })).statusCode, 201);

    const exact = await fillCart(t.app, {}, [[atLimit, 1]]);
    assert.equal((await totals(t.app, exact, cod)).json().total, 500);
    const placed = await placeOrder(exact, cod);
    assert.equal(placed.statusCode, 201, placed.body);
    assert.equal(placed.json().data.total, 500);
    assert.equal(await stock(atLimit), 9);
  });

  test('when the cart holds more units than order_max_units (200), then totals and place-order answer 422 LIMIT_REACHED and no stock is taken; 200 units pass', async () => {
    const [a, b, c] = [
      await makeProduct(t.app.db, { price: 1, stockQty: 500 }),
      await makeProduct(t.app.db, { price: 1, stockQty: 500 }),
      await makeProduct(t.app.db, { price: 1, stockQty: 500 }),
    ];
    const who = await fillCart(t.app, {}, [
      [a, 100],
      [b, 100],
      [c, 1],
    ]);
    const quoted = await totals(t.app, who, { transportId: freeTransport });
    assert.equal(quoted.statusCode, 422, quoted.body);
    assert.equal(quoted.json().error.code, 'LIMIT_REACHED');
    assert.match(quoted.json().error.message, /at most 200 units \(order_max_units\)/);
    const ordersBefore = await orderCount();
    const refused = await placeOrder(who, { payWay: 'card' });
    assert.equal(refused.statusCode, 422, refused.body);
    assert.equal(refused.json().error.code, 'LIMIT_REACHED');
    assert.equal(await orderCount(), ordersBefore);
    assert.deepEqual([await stock(a), await stock(b), await stock(c)], [500, 500, 500]);

    assert.equal((await call(t.app, 'DELETE', `/rest/cart/items/${c}`, who)).statusCode, 200);
    const placed = await placeOrder(who, { payWay: 'card' });
    assert.equal(placed.statusCode, 201, placed.body);
    assert.deepEqual([await stock(a), await stock(b)], [400, 400]);
  });

  test('when cod_max_total is set to any amount, then a cash-on-delivery total passes exactly when it is at most that amount, to the cent', async () => {
    const put = (cents: number) =>
      call(t.app, 'PUT', '/rest/system/setting/cod_max_total', admin, { value: cents / 100 });
    try {
      await fc.assert(
        fc.asyncProperty(
          // Up to the largest amount the setting takes (10,000,000.00).
          fc.integer({ min: 1, max: 1_000_000_000 - 2 }),
          fc.integer({ min: -2, max: 2 }),
          async (price, offset) => {
            const limit = Math.max(0, price + offset);
            assert.equal((await put(limit)).statusCode, 200);
            const product = await makeProduct(t.app.db, { price, stockQty: 1 });
            const who = await fillCart(t.app, {}, [[product, 1]]);
            const quoted = await totals(t.app, who, { transportId: freeTransport, payWay: 'delivery' });
            assert.equal(quoted.statusCode, price <= limit ? 200 : 422, quoted.body);
          },
        ),
        { numRuns: 25 },
      );
    } finally {
      await call(t.app, 'DELETE', '/rest/system/setting/cod_max_total', admin);
    }
  });
});
