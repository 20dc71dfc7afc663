import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import {
  adminHeaders,
  createCategory,
  createProduct,
  customerHeaders,
  insertCustomer,
  setStoredSetting,
} from '../helpers/catalog-factories.ts';

type Json = Record<string, unknown>;

// Storefront lists read their page as JSON rows in the same statement as the settings, while show
// and item read typed columns: whatever path a row takes, the caller must get the same object.

describe('list rows equal show rows, whatever the read path', () => {
  let t: TestApp;
  const callers: Record<string, Record<string, string>> = {};
  let categoryId: number;

  before(async () => {
    // Writes made here in SQL reach the answer cache as another instance's would, by notification
    // (test/resources/response-cache*.test.ts): these tests read the path underneath it.
    t = await startTestApp({ config: { cache: { enabled: false } } });
    callers.guest = {};
    callers.customer = await customerHeaders(t.app, await insertCustomer(t.database.db));
    callers.admin = await adminHeaders(t.app);
    categoryId = (await createCategory(t.app, { name: 'Rows' })).id as number;
    await createProduct(t.app, {
      name: 'Odd numbers',
      brand: 'Rows',
      price: 0.07,
      vatRate: 7.5,
      weightKg: 12.345,
      categoryId,
      images: ['https://cdn.example.com/a.png', 'https://cdn.example.com/b%22q.png?x=1&y=2'],
      description: 'Quotes " and \\ backslashes, emoji 🧪, tab\tend',
    });
    await createProduct(t.app, { name: 'Plain', brand: 'Rows', price: 1234567.89, categoryId, images: [] });
    const changed = await createProduct(t.app, { name: 'Repriced', brand: 'Rows', price: 10, categoryId });
    await t.app.inject({
      method: 'PATCH',
      url: `/rest/product/product/${changed.id}`,
      headers: callers.admin,
      payload: { price: 12 },
    });
    await setStoredSetting(t.database.db, 'price_tracking_enabled', true);
  });
  after(() => t.close());

  // Without `with` the page's JSON text is sent as the database wrote it, and the relations of a
  // storefront list are rendered by the same statement; show reads typed rows and embeds relations
  // afterwards. Both must give the same object.
  for (const [who, suffix] of [
    ['guest', '&with=category'],
    ['guest', '&with=category,variants'],
    ['guest', ''],
    ['customer', '&with=category'],
    ['customer', ''],
    ['admin', '&with=category,variants'],
    ['admin', ''],
  ] as const) {
    test(`when a ${who} lists products${suffix ? ` ${suffix.slice(1)}` : ''}, then every row equals the product's show answer`, async () => {
      const list = await t.app.inject({
        method: 'GET',
        url: `/rest/product/product?brand=Rows${suffix}`,
        headers: callers[who],
      });
      assert.equal(list.statusCode, 200, list.body);
      assert.match(String(list.headers['content-type']), /^application\/json; charset=utf-8/);
      const rows = list.json().data as Json[];
      assert.equal(rows.length, 3);
      assert.deepEqual(Object.keys(list.json()), ['success', 'data', 'pagination']);
      for (const row of rows) {
        const show = await t.app.inject({
          method: 'GET',
          url: `/rest/product/product/${row.id}${suffix.replace('&', '?')}`,
          headers: callers[who],
        });
        assert.deepEqual(row, show.json().data);
      }
      const repriced = rows.find((r) => r.name === 'Repriced')!;
      assert.equal(repriced.price, 12);
      assert.equal(repriced.referencePrice, 10);
      const odd = rows.find((r) => r.name === 'Odd numbers')!;
      assert.equal(odd.price, 0.07);
      assert.equal(odd.vatRate, 7.5);
      assert.equal(odd.weightKg, 12.345);
      assert.deepEqual(odd.images, [
        'https://cdn.example.com/a.png',
        'https://cdn.example.com/b%22q.png?x=1&y=2',
      ]);
      if (who === 'admin') assert.match(String(odd.createdAt), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    });
  }

  test('when price tracking is switched off and on, then the next list shows referencePrice as null, then again', async () => {
    const referencePrices = async () => {
      const res = await t.app.inject({ method: 'GET', url: '/rest/product/product?brand=Rows&sort=name' });
      return (res.json().data as Json[]).map((r) => r.referencePrice);
    };
    assert.deepEqual(await referencePrices(), [null, null, 10]);
    await setStoredSetting(t.database.db, 'price_tracking_enabled', false);
    assert.deepEqual(await referencePrices(), [null, null, null]);
    await setStoredSetting(t.database.db, 'price_tracking_enabled', true);
    assert.deepEqual(await referencePrices(), [null, null, 10]);
  });

  test('when the page-size ceiling changes between two lists, then the second list already uses it', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/rest/product/product?brand=Rows&limit=3' });
    assert.equal(first.json().pagination.per_page, 3);
    assert.equal(first.json().data.length, 3);
    await setStoredSetting(t.database.db, 'rest_max_page_size', 2);
    const second = await t.app.inject({
      method: 'GET',
      url: '/rest/product/product?brand=Rows&limit=3&page=2',
    });
    assert.equal(second.json().pagination.per_page, 2);
    assert.equal(second.json().pagination.total_pages, 2);
    // Page 2 of size 2 holds the third product: the offset follows the fresh ceiling too.
    assert.deepEqual(
      second.json().data.map((p: Json) => p.name),
      [first.json().data[2].name],
    );
    await setStoredSetting(t.database.db, 'rest_max_page_size', 1000);
    const third = await t.app.inject({ method: 'GET', url: '/rest/product/product?brand=Rows&limit=3' });
    assert.equal(third.json().pagination.per_page, 3);
  });
});
