import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/db/client.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { bothPaths, headersApartFromIdAndDate, listening } from '../helpers/early-hits.ts';
import {
  adminHeaders,
  create,
  createCategory,
  createProduct,
  customerHeaders,
  insertCustomer,
} from '../helpers/catalog-factories.ts';

// The answer cache through HTTP (docs/performance.md, "The shared cache"): every path that
// changes what a storefront answer shows drops it at once on the instance that wrote.

type Json = Record<string, unknown>;

describe('the answer cache on one instance', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let customer: Record<string, string>;
  let customerId: number;

  before(async () => {
    t = await startTestApp();
    admin = await adminHeaders(t.app);
    customerId = await insertCustomer(t.database.db);
    customer = await customerHeaders(t.app, customerId);
  });
  after(() => t.close());

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers });
  const patch = (url: string, payload: Json) =>
    t.app.inject({ method: 'PATCH', url, headers: admin, payload });
  const hits = () => t.app.responseCache?.answers.hits ?? 0;
  const dataOf = async (url: string, headers: Record<string, string> = {}) => {
    const res = await get(url, headers);
    assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
    return res.json().data;
  };
  /** Asks twice: an answer is kept from its URL's second ask, so a write after it must drop it. */
  const keptData = async (url: string, headers: Record<string, string> = {}) => {
    await dataOf(url, headers);
    return dataOf(url, headers);
  };

  test('when a URL is asked once, then its answer is not kept; from its second ask it is', async () => {
    const answers = t.app.responseCache?.answers;
    assert.ok(answers);
    const kept = answers.size;
    for (let page = 1; page <= 20; page++) await get(`/rest/product/product?limit=1&page=${page}`);
    assert.equal(answers.size, kept, 'twenty URLs asked once each: nothing kept, nothing pushed out');
    const before = hits();
    await get('/rest/product/product?limit=1&page=3');
    assert.equal(hits(), before, 'the second ask reads and keeps');
    await get('/rest/product/product?limit=1&page=3');
    assert.equal(hits(), before + 1, 'the third is a hit');
    assert.equal(answers.size, kept + 1);
  });

  test('when a guest asks the same URL again, then the same bytes and ETag come from the cache', async () => {
    const product = await createProduct(t.app);
    const url = `/rest/product/product/${product.id}`;
    const first = await get(url);
    await get(url); // kept from the second ask
    const before = hits();
    const second = await get(url);
    assert.equal(hits(), before + 1);
    assert.equal(second.body, first.body);
    assert.equal(second.headers.etag, first.headers.etag);
    assert.equal(second.headers['cache-control'], 'public, max-age=60');
    assert.equal(second.headers['content-type'], first.headers['content-type']);
    const notModified = await get(url, { 'if-none-match': String(first.headers.etag) });
    assert.equal(notModified.statusCode, 304);
    assert.equal(notModified.body, '');
  });

  test('when an answer comes from the cache, then it carries the headers the first one had, and its own request id', async () => {
    const product = await createProduct(t.app);
    const url = `/rest/product/product/${product.id}`;
    const { date: _d1, 'x-request-id': _id1, ...first } = (await get(url)).headers;
    await get(url); // kept from the second ask
    const before = hits();
    const second = await get(url, { 'x-request-id': 'from-the-caller-1' });
    assert.equal(hits(), before + 1);
    const { date: _d2, 'x-request-id': id, ...kept } = second.headers;
    assert.deepEqual(kept, first);
    assert.equal(id, 'from-the-caller-1');
    const notModified = await get(url, { 'if-none-match': String(first.etag) });
    assert.equal(hits(), before + 2);
    assert.equal(notModified.statusCode, 304);
    assert.equal(notModified.headers.etag, first.etag);
    assert.equal(notModified.headers.vary, first.vary);
    assert.equal(notModified.headers['content-type'], undefined);
  });

  test('when a guest hit is sent before Fastify, then every header but the request id and date is the one of Fastify\'s path', async () => {
    const product = await createProduct(t.app);
    const base = await listening(t.app);
    for (const url of [`/rest/product/product/${product.id}`, '/rest/product/product?limit=2', '/rest/v1/storefront-config']) {
      const { fastify, early, earlyHits } = await bothPaths(t.app, base, url);
      assert.equal(earlyHits, 1, url);
      assert.deepEqual(headersApartFromIdAndDate(early), headersApartFromIdAndDate(fastify), url);
      assert.equal(await early.text(), await fastify.text(), url);
      assert.match(String(early.headers.get('x-request-id')), /^[0-9a-f-]{36}$/);
    }
  });

  test('when many guests ask a page that is not kept at once, then one read answers them all', async () => {
    const product = await createProduct(t.app);
    const url = `/rest/product/product/${product.id}?with=category`;
    const answers = t.app.responseCache?.answers;
    assert.ok(answers);
    const [hitsBefore, missesBefore] = [answers.hits, answers.misses];
    const all = await Promise.all(Array.from({ length: 10 }, () => get(url)));
    assert.ok(all.every((res) => res.statusCode === 200 && res.body === all[0]?.body));
    assert.equal(answers.misses - missesBefore, 1);
    assert.equal(answers.hits - hitsBefore, 9);
  });

  test('when a price changes, then the next list and product page show it', async () => {
    const product = await createProduct(t.app, { price: 10 });
    const list = `/rest/product/product?id=${product.id}`;
    const page = `/rest/product/product/${product.id}`;
    await keptData(list);
    await keptData(page);
    assert.equal((await patch(page, { price: 12.5 })).statusCode, 200);
    assert.equal((await dataOf(list))[0].price, 12.5);
    assert.equal((await dataOf(page)).price, 12.5);
  });

  test('when the stock crosses a status boundary, then the stock status shown follows', async () => {
    const product = await createProduct(t.app, { stockQty: 10 });
    const page = `/rest/product/product/${product.id}`;
    assert.equal((await keptData(page)).stockStatus, 'in_stock');
    await patch(page, { stockQty: 3 });
    assert.equal((await dataOf(page)).stockStatus, 'low_stock');
    await patch(page, { stockQty: 0 });
    const shown = await dataOf(page);
    assert.equal(shown.stockStatus, 'out_of_stock');
    assert.equal(shown.inStock, false);
  });

  test('when a category is renamed, then the category list and the embedded category show the name', async () => {
    const category = await createCategory(t.app, { name: 'Before' });
    const product = await createProduct(t.app, { categoryId: category.id });
    const embedded = `/rest/product/product/${product.id}?with=category`;
    const list = `/rest/product/category?id=${category.id}`;
    await keptData(embedded);
    await keptData(list);
    await patch(`/rest/product/category/${category.id}`, { name: 'After' });
    assert.equal((await dataOf(embedded)).category.name, 'After');
    assert.equal((await dataOf(list))[0].name, 'After');
  });

  test('when a setting changes, then the storefront configuration and the product currency follow', async () => {
    const product = await createProduct(t.app);
    const page = `/rest/product/product/${product.id}`;
    const putSetting = (key: string, value: unknown) =>
      t.app.inject({ method: 'PUT', url: `/rest/system/setting/${key}`, headers: admin, payload: { value } });
    const tracking = async () => (await dataOf('/rest/v1/storefront-config')).priceTracking.enabled;
    assert.equal(await tracking(), true);
    assert.equal(await tracking(), true);
    assert.equal((await keptData(page)).currency, 'EUR');
    assert.equal((await putSetting('currency', 'USD')).statusCode, 200);
    assert.equal((await putSetting('price_tracking_enabled', false)).statusCode, 200);
    assert.equal((await dataOf(page)).currency, 'USD');
    assert.equal(await tracking(), false);
    await t.app.inject({ method: 'DELETE', url: '/rest/system/setting/currency', headers: admin });
    assert.equal((await dataOf(page)).currency, 'EUR');
  });

  test('when a gift rule is switched off, then the public gift list drops it', async () => {
    const product = await createProduct(t.app);
    const gift = await create(t.app, '/rest/checkout/gift', { productIds: [product.id] });
    const ids = async () => ((await dataOf('/rest/checkout/gift?limit=100')) as Json[]).map((g) => g.id);
    assert.ok((await ids()).includes(gift.id));
    assert.ok((await ids()).includes(gift.id));
    await patch(`/rest/checkout/gift/${gift.id}`, { active: false });
    assert.ok(!(await ids()).includes(gift.id));
  });

  test('when a product is written in SQL, not through the API, then its answer changes too', async () => {
    const product = await createProduct(t.app, { name: 'Written in SQL' });
    const page = `/rest/product/product/${product.id}`;
    await keptData(page);
    await queryRows(t.database.db, sql`update product set name = 'Renamed in SQL' where id = ${product.id}`);
    assert.equal(await eventually(async () => (await dataOf(page)).name, 'Renamed in SQL'), 'Renamed in SQL');
  });

  test('when a customer reads products, then inWishlist is their own, never a cached answer', async () => {
    const product = await createProduct(t.app);
    const page = `/rest/product/product/${product.id}`;
    assert.equal((await keptData(page, customer)).inWishlist, false);
    const added = await t.app.inject({
      method: 'POST',
      url: '/rest/customer/wishlist',
      headers: customer,
      payload: { productId: product.id },
    });
    assert.equal(added.statusCode, 201, added.body);
    assert.equal((await dataOf(page, customer)).inWishlist, true);
    const other = await customerHeaders(t.app, await insertCustomer(t.database.db));
    assert.equal((await dataOf(page, other)).inWishlist, false);
  });

  test('when customers read categories, then they share one kept answer, private to each', async () => {
    const other = await customerHeaders(t.app, await insertCustomer(t.database.db));
    const url = '/rest/product/category?limit=5';
    await get(url, customer);
    await get(url, customer); // kept from the second ask
    const before = hits();
    const res = await get(url, other);
    assert.equal(hits(), before + 1);
    assert.equal(res.headers['cache-control'], 'private, no-store');
    assert.equal(res.headers.etag, undefined);
  });

  test('when an admin reads, then the answer is never taken from or kept in the cache', async () => {
    const product = await createProduct(t.app, { costPrice: 4 });
    const url = `/rest/product/product/${product.id}`;
    await keptData(url);
    const before = hits();
    const res = await get(url, admin);
    assert.equal(res.json().data.costPrice, 4);
    assert.equal(hits(), before);
    assert.equal((await get(url)).json().data.costPrice, undefined);
  });

  test('when the Accept-Language differs, then the answers are kept apart', async () => {
    const url = '/rest/product/category?limit=3';
    const de = { 'accept-language': 'de' };
    const el = { 'accept-language': 'el' };
    await get(url, de);
    await get(url, de); // kept from the second ask
    const before = hits();
    await get(url, el);
    await get(url, el);
    assert.equal(hits(), before, 'the answer kept for de is not the one for el');
    await get(url, el);
    assert.equal(hits(), before + 1);
  });
});

describe('the answer cache switched off', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ config: { cache: { enabled: false } } });
  });
  after(() => t.close());

  test('when cache.enabled is false, then no cache is kept and reads still answer', async () => {
    assert.equal(t.app.responseCache, undefined);
    const res = await t.app.inject({ method: 'GET', url: '/rest/product/category' });
    assert.equal(res.statusCode, 200);
  });
});

/** Asks until `read` answers `expected` or a second passed; answers the last value read. */
export async function eventually<T>(read: () => Promise<T>, expected: T): Promise<T> {
  const deadline = Date.now() + 1000;
  let value = await read();
  while (value !== expected && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    value = await read();
  }
  return value;
}
