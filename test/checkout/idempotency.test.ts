import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/db/client.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { ADDRESS, call, fillCart, makeCustomer, makeProduct, makeTransport, placeOrder } from './fixtures.ts';

describe('place-order with Idempotency-Key', () => {
  let t: TestApp;
  let transportId: number;
  const ordersOf = async (customerId: number) =>
    (
      await queryRows<{ n: number }>(
        t.app.db,
        sql`select count(*)::int as n from sales_order where customer_id = ${customerId}`,
      )
    )[0].n;

  before(async () => {
    t = await startTestApp();
    transportId = await makeTransport(t.app.db);
  });
  after(async () => t.close());

  test('when a request is retried with the same key and body, then the first answer is replayed (status and body) and one order exists', async () => {
    const p = await makeProduct(t.app.db);
    const ada = await makeCustomer(t.app);
    await fillCart(t.app, { token: ada.token }, [[p, 2]]);
    const first = await placeOrder(t.app, { token: ada.token }, { transportId, payWay: 'card' }, 'key-1');
    assert.equal(first.statusCode, 201);
    // The same body with its keys in another order is the same request.
    const again = await placeOrder(t.app, { token: ada.token }, { payWay: 'card', transportId }, 'key-1');
    assert.equal(again.statusCode, 201);
    assert.deepEqual(again.json(), first.json());
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal(await ordersOf(ada.id), 1);
  });

  test('when the same key comes with another body, then 422 IDEMPOTENCY_KEY_REUSED and nothing is written', async () => {
    const p = await makeProduct(t.app.db);
    const ada = await makeCustomer(t.app);
    await fillCart(t.app, { token: ada.token }, [[p, 1]]);
    assert.equal((await placeOrder(t.app, { token: ada.token }, { transportId }, 'key-2')).statusCode, 201);
    await fillCart(t.app, { token: ada.token }, [[p, 1]]);
    const other = await placeOrder(
      t.app,
      { token: ada.token },
      { transportId, giftPackaging: true },
      'key-2',
    );
    assert.equal(other.statusCode, 422);
    assert.equal(other.json().error.code, 'IDEMPOTENCY_KEY_REUSED');
    assert.equal(await ordersOf(ada.id), 1);
  });

  test('when two callers use the same key, then each gets an order of their own (keys are scoped per caller)', async () => {
    const p = await makeProduct(t.app.db);
    const [ada, bob] = [await makeCustomer(t.app), await makeCustomer(t.app)];
    for (const c of [ada, bob]) {
      await fillCart(t.app, { token: c.token }, [[p, 1]]);
      const res = await placeOrder(t.app, { token: c.token }, { transportId }, 'shared-key');
      assert.equal(res.statusCode, 201);
      assert.equal(res.json().data.customerId, c.id);
    }
  });

  test('when a guest retries with the key, then the replay is scoped to the cart token', async () => {
    const p = await makeProduct(t.app.db);
    const who = await fillCart(t.app, {}, [[p, 1]]);
    const first = await placeOrder(t.app, who, { transportId, email: 'g@example.com' }, 'guest-key');
    const again = await placeOrder(t.app, who, { transportId, email: 'g@example.com' }, 'guest-key');
    assert.equal(first.statusCode, 201);
    assert.deepEqual(again.json(), first.json());
    const stranger = await fillCart(t.app, {}, [[p, 1]]);
    const theirs = await placeOrder(t.app, stranger, { transportId, email: 'g@example.com' }, 'guest-key');
    assert.equal(theirs.statusCode, 201);
    assert.notEqual(theirs.json().data.id, first.json().data.id);
  });

  test('when a refused request is retried with its key, then it runs again (refusals are not stored)', async () => {
    const p = await makeProduct(t.app.db, { stockQty: 2 });
    const ada = await makeCustomer(t.app);
    await fillCart(t.app, { token: ada.token }, [[p, 2]]);
    await t.app.db.execute(sql`update product set stock_qty = 1 where id = ${p}`);
    const refused = await placeOrder(t.app, { token: ada.token }, { transportId }, 'retry-key');
    assert.equal(refused.statusCode, 409);
    await t.app.db.execute(sql`update product set stock_qty = 5 where id = ${p}`);
    const ok = await placeOrder(t.app, { token: ada.token }, { transportId }, 'retry-key');
    assert.equal(ok.statusCode, 201);
  });

  test('when the key is longer than 200 characters or empty, then 400', async () => {
    const ada = await makeCustomer(t.app);
    for (const key of ['k'.repeat(201), '']) {
      const res = await call(
        t.app,
        'POST',
        '/rest/checkout/place-order',
        { token: ada.token },
        { ...ADDRESS, transportId },
        { 'idempotency-key': key },
      );
      assert.equal(res.statusCode, 400, `key of ${key.length}`);
    }
  });
});
