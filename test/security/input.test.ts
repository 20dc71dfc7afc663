import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/db/client.ts';
import {
  adminToken,
  call,
  fillCart,
  makeCustomer,
  makeProduct,
  makeTransport,
  placeOrder,
} from '../checkout/fixtures.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { insertProducts } from '../helpers/catalog-factories.ts';

// Input rules (docs/resources.md "Input"): JSON bodies are taken as typed, ids are decimal digits,
// any large limit is clamped, read-only fields are named as such, and numbers the database cannot
// hold are 4xx with nothing changed.

interface ErrorAnswer {
  success: false;
  error: { code: string; message: string; details?: { field: string; message: string }[] };
}

describe('input: JSON bodies, ids, limits, read-only fields and numbers out of range', () => {
  let t: TestApp;
  let superuser: string;
  let products: string;

  before(async () => {
    t = await startTestApp();
    // Ids 1…120 exist, so 0x10 (16), 1e2 (100) and 1.0 (1) would each find a product if read as numbers.
    await insertProducts(t.app.db, 120);
    superuser = await adminToken(t.app, [1]);
    products = await adminToken(t.app, [5]);
  });
  after(() => t.close());

  const errorOf = (body: string) => JSON.parse(body) as ErrorAnswer;

  test('when a JSON body sends a string or a boolean where a number is expected, then 400 naming the field and nothing is added', async () => {
    const customer = await makeCustomer(t.app);
    const who = { token: customer.token };
    for (const payload of [
      { productId: 1, qty: '1e2' },
      { productId: 1, qty: true },
      { productId: 1, qty: '2' },
      { productId: '1', qty: 1 },
    ]) {
      const res = await call(t.app, 'POST', '/rest/cart/items', who, payload);
      assert.equal(res.statusCode, 400, `${JSON.stringify(payload)} → ${res.body}`);
      const { error } = errorOf(res.body);
      assert.equal(error.code, 'VALIDATION_FAILED');
      const field = typeof payload.qty === 'number' ? 'productId' : 'qty';
      assert.deepEqual(
        error.details?.map((d) => d.field),
        [field],
      );
    }
    const cart = await call(t.app, 'GET', '/rest/cart', who);
    assert.deepEqual(cart.json().data.lines, [], 'no coerced quantity reached the cart');
    const typed = await call(t.app, 'POST', '/rest/cart/items', who, { productId: 1, qty: 2 });
    assert.equal(typed.statusCode, 200, typed.body);
  });

  test('when a product PATCH sends a string for a boolean or a number, then 400 and the product is unchanged', async () => {
    for (const payload of [{ active: 'false' }, { active: 0 }, { price: '12.50' }, { stockQty: '7' }]) {
      const res = await call(t.app, 'PATCH', '/rest/product/product/2', { token: products }, payload);
      assert.equal(res.statusCode, 400, `${JSON.stringify(payload)} → ${res.body}`);
      assert.equal(errorOf(res.body).error.details?.[0].field, Object.keys(payload)[0]);
    }
    const [row] = await queryRows<{ active: boolean; stock: number }>(
      t.app.db,
      sql`select active, stock_qty as stock from product where id = 2`,
    );
    assert.deepEqual(row, { active: true, stock: 5 });
  });

  test('when a path id is not plain decimal digits or passes int4, then 400 and no record is found', async () => {
    const bad = [
      '0x10',
      '%201',
      '1e2',
      '1.0',
      '+1',
      '%2B1',
      '1%20',
      '-1',
      '0',
      '2147483648',
      '99999999999999999999',
    ];
    const customer = await makeCustomer(t.app);
    const paths = (id: string): [string, string, string, Record<string, unknown>?][] => [
      ['GET', `/rest/product/product/${id}`, ''],
      ['PATCH', `/rest/product/product/${id}`, superuser, { name: 'x' }],
      ['GET', `/rest/order/order/${id}`, superuser],
      ['POST', `/rest/order/order/${id}/transition`, superuser, { to: 'confirmed' }],
      ['GET', `/rest/system/admin-user/${id}`, superuser],
      ['PATCH', `/rest/cart/items/${id}`, customer.token, { qty: 1 }],
      ['DELETE', `/rest/customer/wishlist/${id}`, customer.token],
    ];
    const answers: string[] = [];
    for (const id of bad) {
      for (const [method, url, token, payload] of paths(id)) {
        const res = await call(t.app, method as 'GET', url, token ? { token } : {}, payload);
        answers.push(`${method} ${url} ${res.statusCode}`);
        assert.equal(res.statusCode, 400, `${method} ${url} → ${res.body}`);
        assert.equal(errorOf(res.body).error.code, 'VALIDATION_FAILED');
      }
    }
    const plain = await call(t.app, 'GET', '/rest/product/product/16');
    assert.equal(plain.statusCode, 200, 'decimal digits still find the record');
    assert.equal(plain.json().data.id, 16);
    assert.equal((await call(t.app, 'GET', '/rest/product/product/2147483647')).statusCode, 404);
  });

  test('when limit is any non-negative integer, then storefront callers get the ceiling (200); negative, fractional or not a number is 400', async () => {
    for (const limit of ['1001', '1000000000000', '99999999999999999999999999999']) {
      const guest = await call(t.app, 'GET', `/rest/product/product?limit=${limit}`);
      assert.equal(guest.statusCode, 200, `${limit}: ${guest.body}`);
      assert.equal(guest.json().pagination.per_page, 1000, limit);
      assert.equal(guest.json().data.length, 120);
    }
    const customer = await makeCustomer(t.app);
    const orders = await call(t.app, 'GET', '/rest/order/order?limit=1000000000000', {
      token: customer.token,
    });
    assert.equal(orders.statusCode, 200, orders.body);
    assert.equal(orders.json().pagination.per_page, 1000);
    const admin = await call(t.app, 'GET', '/rest/product/product?limit=1000000000000', { token: superuser });
    assert.equal(admin.statusCode, 200, admin.body);
    assert.equal(admin.json().pagination.per_page, 2_147_483_647, 'the back office is clamped at int4 only');
    for (const query of [
      'limit=-1',
      'limit=2.5',
      'limit=abc',
      'limit=1e3',
      'limit=0x10',
      'page=1e20',
      'page=0x2',
    ]) {
      const res = await call(t.app, 'GET', `/rest/product/product?${query}`);
      assert.equal(res.statusCode, 400, `${query}: ${res.body}`);
      assert.equal(errorOf(res.body).error.details?.[0].field, query.split('=')[0]);
    }
  });

  test('when a write names a read-only field, then 400 whose message says it is read-only; an unknown one is "not a known field"', async () => {
    const cases: [string, string, Record<string, unknown>, string][] = [
      ['PATCH', '/rest/product/product/3', { id: 5 }, 'id is read-only'],
      [
        'PATCH',
        '/rest/product/product/3',
        { createdAt: '2020-01-01T00:00:00.000Z' },
        'createdAt is read-only',
      ],
      ['PATCH', '/rest/product/product/3', { referencePrice: 1, name: 'x' }, 'referencePrice is read-only'],
      [
        'POST',
        '/rest/checkout/coupon',
        { code: 'RO1', type: 'fixed', value: 5, usedCount: 3 },
        'usedCount is read-only',
      ],
    ];
    for (const [method, url, payload, message] of cases) {
      const res = await call(t.app, method as 'POST', url, { token: superuser }, payload);
      assert.equal(res.statusCode, 400, `${url} ${JSON.stringify(payload)} → ${res.body}`);
      assert.match(errorOf(res.body).error.message, new RegExp(message));
    }
    const [row] = await queryRows<{ name: string }>(t.app.db, sql`select name from product where id = 3`);
    assert.equal(row.name, 'Bulk 2', 'nothing written');
    const unknown = await call(
      t.app,
      'PATCH',
      '/rest/product/product/3',
      { token: superuser },
      { isAdmin: true },
    );
    assert.equal(unknown.statusCode, 400);
    assert.match(errorOf(unknown.body).error.message, /isAdmin is not a known field/);
    const customer = await makeCustomer(t.app);
    const own = await call(
      t.app,
      'POST',
      '/rest/customer/address',
      { token: customer.token },
      {
        customerId: customer.id,
        firstName: 'A',
        lastName: 'B',
        street: 'S 1',
        city: 'C',
        countryAlpha2: 'DE',
        postalCode: '1',
      },
    );
    assert.equal(own.statusCode, 400);
    assert.match(errorOf(own.body).error.message, /customerId is read-only/);
  });

  test('when a stock, a price or a filter value does not fit its column, then 400 and nothing is written', async () => {
    for (const payload of [
      { stockQty: 2_147_483_648 },
      { stockQty: 1e20 },
      { price: 10_000_001 },
      { price: 1e300 },
    ]) {
      const res = await call(t.app, 'PATCH', '/rest/product/product/4', { token: superuser }, payload);
      assert.equal(res.statusCode, 400, `${JSON.stringify(payload)} → ${res.body}`);
    }
    const [row] = await queryRows<{ stock: number; price: number }>(
      t.app.db,
      sql`select stock_qty as stock, price from product where id = 4`,
    );
    assert.deepEqual(row, { stock: 5, price: 103 });
    for (const query of [
      'price[gte]=999999999999',
      'price[lte]=21474836.48',
      'id=2147483648',
      'categoryId=99999999999',
    ]) {
      const res = await call(t.app, 'GET', `/rest/product/product?${query}`, { token: superuser });
      assert.equal(res.statusCode, 400, `${query} → ${res.body}`);
    }
  });

  test('when a cancellation would return stock past int4, then 422 and the order and stock are unchanged', async () => {
    const transportId = await makeTransport(t.app.db);
    const p = await makeProduct(t.app.db, { stockQty: 10 });
    const customer = await makeCustomer(t.app);
    await fillCart(t.app, { token: customer.token }, [[p, 2]]);
    const placed = await placeOrder(t.app, { token: customer.token }, { transportId });
    assert.equal(placed.statusCode, 201, placed.body);
    const id = placed.json().data.id as number;
    const full = await call(
      t.app,
      'PATCH',
      `/rest/product/product/${p}`,
      { token: superuser },
      { stockQty: 2_147_483_647 },
    );
    assert.equal(full.statusCode, 200, full.body);
    const cancel = await call(
      t.app,
      'POST',
      `/rest/order/order/${id}/transition`,
      { token: superuser },
      { to: 'cancelled' },
    );
    assert.equal(cancel.statusCode, 422, cancel.body);
    assert.equal(errorOf(cancel.body).error.code, 'UNPROCESSABLE');
    assert.doesNotMatch(cancel.body, /integer|22003|stock_qty/);
    const [state] = await queryRows<{ status: string; stock: number }>(
      t.app.db,
      sql`select (select status from sales_order where id = ${id}) as status,
                 (select stock_qty from product where id = ${p}) as stock`,
    );
    assert.deepEqual(state, { status: 'pending', stock: 2_147_483_647 });
  });
});
