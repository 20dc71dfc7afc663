import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import {
  adminHeaders,
  createProduct,
  customerHeaders,
  insertCustomer,
} from '../helpers/catalog-factories.ts';

describe('HTTP caching headers (docs/resources.md, "Caching headers")', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let customer: Record<string, string>;

  before(async () => {
    t = await startTestApp();
    admin = await adminHeaders(t.app);
    customer = await customerHeaders(t.app, await insertCustomer(t.database.db));
    await createProduct(t.app, { name: 'Cached' });
  });
  after(() => t.close());

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers });

  test('when a guest reads the catalog or CMS, then a weak ETag, public max-age=60 and Vary: Authorization', async () => {
    for (const url of [
      '/rest/product/product',
      '/rest/product/product/1',
      '/rest/product/category',
      '/rest/cms/reel',
      '/rest/checkout/transport',
      '/rest/product/product/item?id=1',
    ]) {
      const res = await get(url);
      assert.equal(res.statusCode, 200, url);
      assert.match(String(res.headers.etag), /^W\/"[A-Za-z0-9_-]+"$/, url);
      assert.equal(res.headers['cache-control'], 'public, max-age=60', url);
      assert.match(String(res.headers.vary), /Authorization/, url);
    }
  });

  test('when If-None-Match matches, then 304 without a body; a changed answer gets a new ETag', async () => {
    const first = await get('/rest/product/product');
    const etag = String(first.headers.etag);
    const again = await get('/rest/product/product', { 'if-none-match': etag });
    assert.equal(again.statusCode, 304);
    assert.equal(again.body, '');
    assert.equal(again.headers.etag, etag);
    const list = await get('/rest/product/product', { 'if-none-match': `"other", ${etag}` });
    assert.equal(list.statusCode, 304, 'a list of tags is matched');
    const star = await get('/rest/product/product', { 'if-none-match': '*' });
    assert.equal(star.statusCode, 304);
    await createProduct(t.app, { name: 'Changes the list' });
    const changed = await get('/rest/product/product', { 'if-none-match': etag });
    assert.equal(changed.statusCode, 200);
    assert.notEqual(changed.headers.etag, etag);
  });

  test('when a request carries a token, then private, no-store and no 304', async () => {
    for (const headers of [customer, admin]) {
      const res = await get('/rest/product/product', headers);
      assert.equal(res.headers['cache-control'], 'private, no-store');
      assert.match(String(res.headers.vary), /Authorization/);
      assert.equal(res.headers.etag, undefined);
    }
  });

  test('when features or storefront config are read, then an ETag and no-cache (always revalidated)', async () => {
    for (const url of ['/rest/features', '/rest/v1/storefront-config', '/rest/storefront-config']) {
      const res = await get(url);
      assert.equal(res.headers['cache-control'], 'no-cache', url);
      assert.ok(res.headers.etag, url);
      assert.match(String(res.headers.vary), /Authorization/);
      const revalidated = await get(url, { 'if-none-match': String(res.headers.etag) });
      assert.equal(revalidated.statusCode, 304, url);
    }
  });

  test('when a feature flag changes, then the ETag changes on the next request', async () => {
    const before = await get('/rest/features');
    await t.app.inject({
      method: 'PUT',
      url: '/rest/system/setting/feature_wishlist',
      headers: admin,
      payload: { value: false },
    });
    const after = await get('/rest/features', { 'if-none-match': String(before.headers.etag) });
    assert.equal(after.statusCode, 200);
    assert.equal(after.json().data.wishlist, false);
    await t.app.inject({ method: 'DELETE', url: '/rest/system/setting/feature_wishlist', headers: admin });
  });

  test('when an error answers a guest, then it is not cached publicly', async () => {
    const res = await get('/rest/product/product/999999');
    assert.equal(res.statusCode, 404);
    assert.notEqual(res.headers['cache-control'], 'public, max-age=60');
    assert.equal(res.headers.etag, undefined);
  });
});
