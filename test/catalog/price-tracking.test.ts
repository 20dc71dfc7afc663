import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/db/client.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { adminHeaders, createProduct } from '../helpers/catalog-factories.ts';

type Json = Record<string, unknown>;

describe('price history and the EU Omnibus reference price', () => {
  let t: TestApp;
  let admin: Record<string, string>;

  before(async () => {
    t = await startTestApp();
    admin = await adminHeaders(t.app);
  });
  after(() => t.close());

  const history = (productId: unknown) =>
    queryRows<{ price: number }>(
      t.database.db,
      sql`select price from product_price_history where product_id = ${Number(productId)} and variant_id is null order by valid_from, id`,
    );
  const events = (productId: unknown) =>
    queryRows<{ payload: Json }>(
      t.database.db,
      sql`select payload from outbox_event where type = 'product.price_changed'
          and (payload->>'productId')::int = ${Number(productId)} order by id`,
    );
  const variantsOf = async (productId: number) =>
    (
      await t.app.inject({
        method: 'GET',
        url: `/rest/product/variant?productId=${productId}`,
        headers: admin,
      })
    ).json().data as (Json & { id: number; sku: string })[];
  /** Rewrites a product's history as [price, days ago] entries, oldest first. */
  const setHistory = async (productId: unknown, entries: [number, number][]) => {
    await t.database.db.execute(
      sql`delete from product_price_history where product_id = ${Number(productId)}`,
    );
    for (const [price, daysAgo] of entries) {
      await t.database.db.execute(
        sql`insert into product_price_history (product_id, price, valid_from)
            values (${Number(productId)}, ${price}, now() - make_interval(days => ${daysAgo}))`,
      );
    }
  };
  const patch = (id: unknown, payload: Json) =>
    t.app.inject({ method: 'PATCH', url: `/rest/product/product/${id}`, headers: admin, payload });
  const show = async (id: unknown, headers: Record<string, string> = {}) =>
    (await t.app.inject({ method: 'GET', url: `/rest/product/product/${id}`, headers })).json().data as Json;

  test('when a product is created, then its first price is recorded with an event', async () => {
    const product = await createProduct(t.app, { price: 20 });
    assert.deepEqual(await history(product.id), [{ price: 2000 }]);
    const recorded = await events(product.id);
    assert.equal(recorded.length, 1);
    assert.equal(recorded[0].payload.oldPrice, null);
    assert.equal(recorded[0].payload.newPrice, 20);
    assert.equal(product.referencePrice, null);
  });

  test('when the price does not change, then nothing is recorded', async () => {
    const product = await createProduct(t.app, { price: 20 });
    await patch(product.id, { price: 20, name: 'Renamed' });
    await patch(product.id, { stockQty: 3 });
    assert.equal((await history(product.id)).length, 1);
    assert.equal((await events(product.id)).length, 1);
  });

  test('when the price changes, then the reference is the lowest price of the 30 days before', async () => {
    const product = await createProduct(t.app, { price: 20 });
    await setHistory(product.id, [
      [2000, 40],
      [1500, 20],
      [1700, 5],
    ]);
    const res = await patch(product.id, { price: 18 });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().data.price, 18);
    assert.equal(res.json().data.referencePrice, 15);
    assert.equal((await show(product.id)).referencePrice, 15, 'guests see it too');
    assert.deepEqual(
      (await history(product.id)).map((h) => h.price),
      [2000, 1500, 1700, 1800],
    );
    const last = (await events(product.id)).at(-1)!.payload;
    assert.deepEqual(
      { oldPrice: last.oldPrice, newPrice: last.newPrice, referencePrice: last.referencePrice },
      { oldPrice: 17, newPrice: 18, referencePrice: 15 },
    );
  });

  test('when older prices ended before the window, then only prices in effect inside it count', async () => {
    const product = await createProduct(t.app, { price: 30 });
    await setHistory(product.id, [
      [1000, 50],
      [3000, 35],
    ]);
    assert.equal((await patch(product.id, { price: 25 })).json().data.referencePrice, 30);
    const listed = await t.app.inject({ method: 'GET', url: `/rest/product/product?id=${product.id}` });
    assert.equal(listed.json().data[0].referencePrice, 30, 'lists carry it from the maintained column');
  });

  test('when price tracking is switched off, then referencePrice is null for everyone, live', async () => {
    const product = await createProduct(t.app, { price: 10 });
    await setHistory(product.id, [[900, 10]]);
    await patch(product.id, { price: 11 });
    assert.equal((await show(product.id)).referencePrice, 9);
    await t.app.inject({
      method: 'PUT',
      url: '/rest/system/setting/price_tracking_enabled',
      headers: admin,
      payload: { value: false },
    });
    assert.equal((await show(product.id)).referencePrice, null);
    assert.equal((await show(product.id, admin)).referencePrice, null);
    await t.app.inject({
      method: 'DELETE',
      url: '/rest/system/setting/price_tracking_enabled',
      headers: admin,
    });
    assert.equal((await show(product.id)).referencePrice, 9);
  });

  test('when a write with a price change fails, then neither history nor event is kept', async () => {
    const taken = await createProduct(t.app);
    const product = await createProduct(t.app, { price: 40 });
    const res = await patch(product.id, { price: 35, sku: taken.sku });
    assert.equal(res.statusCode, 409);
    assert.equal((await history(product.id)).length, 1);
    assert.equal((await events(product.id)).length, 1);
    assert.equal((await show(product.id)).price, 40);
  });

  test('when a variant’s own price changes, then product.price_changed names the variant; a product price change raises one event', async () => {
    const sku = `VAR-${Date.now()}`;
    const created = await t.app.inject({
      method: 'POST',
      url: '/rest/product/product',
      headers: admin,
      payload: {
        name: 'Tracked tee',
        sku,
        price: 20,
        options: [{ name: 'Size', values: ['S', 'M'] }],
        variants: [
          { sku: `${sku}-S`, options: { Size: 'S' } },
          { sku: `${sku}-M`, options: { Size: 'M' }, price: 22.5 },
        ],
      },
    });
    assert.equal(created.statusCode, 201, created.body);
    const product = created.json().data as Json & { id: number };
    const variants = await variantsOf(product.id);
    const medium = variants.find((v) => v.sku === `${sku}-M`)!;

    const res = await t.app.inject({
      method: 'PATCH',
      url: `/rest/product/variant/${medium.id}`,
      headers: admin,
      payload: { price: 24.99 },
    });
    assert.equal(res.statusCode, 200, res.body);
    const afterVariant = (await events(product.id)).map((e) => e.payload);
    assert.equal(afterVariant.length, 2, 'the product’s creation, then the variant’s change');
    assert.deepEqual(afterVariant[1], {
      productId: product.id,
      variantId: medium.id,
      sku: `${sku}-M`,
      currency: 'EUR',
      oldPrice: 22.5,
      newPrice: 24.99,
      referencePrice: 22.5,
    });

    assert.equal((await patch(product.id, { price: 21 })).statusCode, 200);
    const afterProduct = (await events(product.id)).map((e) => e.payload);
    assert.equal(afterProduct.length, 3, 'one event for the product, none for the variant following it');
    assert.equal(afterProduct[2].variantId, null);
    assert.equal(afterProduct[2].newPrice, 21);
  });
});
