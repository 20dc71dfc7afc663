import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { queryRows } from '../../src/db/client.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { testEngine } from '../helpers/database.ts';
import { adminToken, call, makeCustomer, makeProduct } from '../checkout/fixtures.ts';

// Hard caps per customer: 20 addresses, 500 wishlist entries. On PostgreSQL the concurrent
// creates really race; PGlite runs them one after the other.

const ADDRESS = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  street: 'Main Street 1',
  city: 'Berlin',
  countryAlpha2: 'DE',
  postalCode: '10115',
};

function assertLimitReached(res: LightMyRequestResponse): void {
  assert.equal(res.statusCode, 422, res.body);
  assert.equal(res.json().error.code, 'LIMIT_REACHED');
}

describe(`per-customer caps (${testEngine})`, () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(async () => t.close());

  const countOf = async (table: 'address' | 'wishlist_item', customerId: number) =>
    (
      await queryRows<{ n: number }>(
        t.app.db,
        sql`select count(*)::int as n from ${sql.identifier(table)} where customer_id = ${customerId}`,
      )
    )[0].n;

  const addAddress = (token: string, body: Record<string, unknown> = {}) =>
    call(t.app, 'POST', '/rest/customer/address', { token }, { ...ADDRESS, ...body });

  test('when a customer has 20 addresses, then the 21st is 422 LIMIT_REACHED, also when an admin adds it; after a delete one fits again', async () => {
    const ada = await makeCustomer(t.app);
    const ids: number[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await addAddress(ada.token, { label: `#${i}` });
      assert.equal(res.statusCode, 201, res.body);
      ids.push(res.json().data.id);
    }
    assertLimitReached(await addAddress(ada.token));
    const admin = await adminToken(t.app, [3]);
    assertLimitReached(await addAddress(admin, { customerId: ada.id }));
    assert.equal(await countOf('address', ada.id), 20);

    const removed = await call(t.app, 'DELETE', `/rest/customer/address/${ids[0]}`, { token: ada.token });
    assert.equal(removed.statusCode, 200);
    assert.equal((await addAddress(admin, { customerId: ada.id })).statusCode, 201);
    assertLimitReached(await addAddress(ada.token));
  });

  test('when 30 addresses are created at once, then exactly 20 exist and the other 10 answers are 422', async () => {
    const ada = await makeCustomer(t.app);
    const answers = await Promise.all(Array.from({ length: 30 }, () => addAddress(ada.token)));
    const statuses = answers.map((a) => a.statusCode);
    assert.equal(statuses.filter((s) => s === 201).length, 20, statuses.join(','));
    assert.equal(statuses.filter((s) => s === 422).length, 10, statuses.join(','));
    assert.equal(await countOf('address', ada.id), 20);
  });

  test('when 10 wishlist adds race at 495 entries, then exactly 500 remain; then a new product is 422 LIMIT_REACHED and one already there still answers 200', async () => {
    const ada = await makeCustomer(t.app);
    const products: number[] = [];
    for (let i = 0; i < 12; i++) products.push(await makeProduct(t.app.db));
    // 495 products and entries written straight into the tables: setup, not what is under test.
    const filler = await queryRows<{ id: number }>(
      t.app.db,
      sql`insert into product (sku, slug, name, price, stock_qty, weight_kg, vat_rate, active)
          select 'CAP-' || ${ada.id} || '-' || g, 'cap-' || ${ada.id} || '-' || g, 'Cap', 100, 1, 0, 19, true
          from generate_series(1, 495) g returning id`,
    );
    await t.app.db.execute(
      sql`insert into wishlist_item (customer_id, product_id)
          select ${ada.id}, id from product where sku like ${`CAP-${ada.id}-%`}`,
    );
    assert.equal(filler.length, 495);
    const add = (productId: number) =>
      call(t.app, 'POST', '/rest/customer/wishlist', { token: ada.token }, { productId });

    const racing = await Promise.all(products.slice(0, 10).map(add));
    const statuses = racing.map((a) => a.statusCode);
    assert.equal(statuses.filter((s) => s === 201).length, 5, statuses.join(','));
    for (const a of racing) if (a.statusCode !== 201) assertLimitReached(a);
    assert.equal(await countOf('wishlist_item', ada.id), 500);

    assertLimitReached(await add(products[11]));
    const again = await add(filler[0].id);
    assert.equal(again.statusCode, 200, 'an entry already there is answered as it is');
  });
});
