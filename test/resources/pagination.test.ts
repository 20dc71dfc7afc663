import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import {
  adminHeaders,
  customerHeaders,
  insertCustomer,
  insertProducts,
  setStoredSetting,
} from '../helpers/catalog-factories.ts';

const TOTAL = 1203;

describe('list envelope and pagination (docs/resources.md, "Pagination")', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let customer: Record<string, string>;

  before(async () => {
    t = await startTestApp();
    admin = await adminHeaders(t.app);
    customer = await customerHeaders(t.app, await insertCustomer(t.database.db));
    await insertProducts(t.database.db, TOTAL);
  });
  after(() => t.close());

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers });

  test('when a list is read, then the envelope and pagination have exactly the spec fields', async () => {
    const res = await get('/rest/product/product?page=2&limit=10');
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.deepEqual(Object.keys(body).sort(), ['data', 'pagination', 'success']);
    assert.equal(body.success, true);
    assert.deepEqual(body.pagination, {
      current_page: 2,
      per_page: 10,
      total: TOTAL,
      total_pages: Math.ceil(TOTAL / 10),
      has_next: true,
      has_prev: true,
    });
    assert.equal(body.data.length, 10);
    assert.equal(body.data[0].id, 11, 'the default order is by id');
  });

  test('when limit is omitted, empty or 0, then 15 items per page', async () => {
    for (const query of ['', '?limit=', '?limit=0', '?page=1&limit=']) {
      const res = await get(`/rest/product/product${query}`);
      assert.equal(res.statusCode, 200, query);
      assert.equal(res.json().pagination.per_page, 15, query);
      assert.equal(res.json().data.length, 15, query);
    }
  });

  test('when a guest or a customer asks above 1000, then 1000 items and 200 (silent clamp)', async () => {
    for (const headers of [{}, customer]) {
      const res = await get('/rest/product/product?limit=5000', headers);
      assert.equal(res.statusCode, 200);
      assert.equal(res.json().pagination.per_page, 1000);
      assert.equal(res.json().data.length, 1000);
      assert.equal(res.json().pagination.total_pages, 2);
    }
  });

  test('when a storefront caller asks between 72 and 1000, then the page is served in full', async () => {
    const res = await get('/rest/product/product?limit=500');
    assert.equal(res.json().pagination.per_page, 500);
    assert.equal(res.json().data.length, 500);
  });

  test('when an admin asks above the ceiling, then there is no ceiling', async () => {
    const res = await get('/rest/product/product?limit=1500', admin);
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().pagination.per_page, 1500);
    assert.equal(res.json().data.length, TOTAL);
    assert.equal(res.json().pagination.has_next, false);
  });

  test('when rest_max_page_size changes through PUT, then the next request is clamped to it', async () => {
    const put = await t.app.inject({
      method: 'PUT',
      url: '/rest/system/setting/rest_max_page_size',
      headers: admin,
      payload: { value: 50 },
    });
    assert.equal(put.statusCode, 200, put.body);
    for (const headers of [{}, customer]) {
      const res = await get('/rest/product/product?limit=100', headers);
      assert.equal(res.json().pagination.per_page, 50);
      assert.equal(res.json().data.length, 50);
    }
    const adminRes = await get('/rest/product/product?limit=100', admin);
    assert.equal(adminRes.json().pagination.per_page, 100, 'admins are not clamped');
    const unaffected = await get('/rest/v1/storefront-config');
    assert.equal(unaffected.json().data.listing.perPageMax, 72, 'products_list_max is a separate key');
    await t.app.inject({ method: 'DELETE', url: '/rest/system/setting/rest_max_page_size', headers: admin });
    const back = await get('/rest/product/product?limit=100');
    assert.equal(back.json().pagination.per_page, 100);
  });

  test('when rest_max_page_size is changed directly in the database, then the next request follows it', async () => {
    await setStoredSetting(t.database.db, 'rest_max_page_size', 7);
    const res = await get('/rest/product/product?limit=20');
    assert.equal(res.json().pagination.per_page, 7);
    assert.equal(res.json().data.length, 7);
    const defaultSize = await get('/rest/product/product');
    assert.equal(defaultSize.json().pagination.per_page, 15, 'the default 15 is not affected by the ceiling');
    for (const bad of [0, -5, 'abc', 2.5, null, '20']) {
      await setStoredSetting(t.database.db, 'rest_max_page_size', bad);
      const fallback = await get('/rest/product/product?limit=1200');
      assert.equal(fallback.json().pagination.per_page, 1000, `stored ${JSON.stringify(bad)} means 1000`);
    }
    await t.app.inject({ method: 'DELETE', url: '/rest/system/setting/rest_max_page_size', headers: admin });
  });

  test('when page or limit is invalid, then 400 VALIDATION_FAILED naming the parameter, without SQL', async () => {
    const cases = [
      'page=0',
      'page=-1',
      'page=abc',
      'page=1.5',
      'page=1e20',
      'limit=-1',
      'limit=abc',
      'limit=2.5',
      'limit=1e12',
    ];
    for (const query of cases) {
      const res = await get(`/rest/product/product?${query}`);
      assert.equal(res.statusCode, 400, query);
      const body = res.json();
      assert.equal(body.success, false);
      assert.equal(body.error.code, 'VALIDATION_FAILED', query);
      assert.equal(body.error.details[0].field, query.split('=')[0], query);
      assert.doesNotMatch(res.body, /select|from "product"|syntax/i);
    }
  });

  test('when sort or a range value is malicious or malformed, then 400 and nothing is evaluated', async () => {
    for (const query of [
      'sort=;drop%20table%20product',
      'sort=unknownField',
      'sort=price;',
      'price[gte]=x',
      'price[lt]=1;2',
      'id=1%20or%201=1',
    ]) {
      const res = await get(`/rest/product/product?${query}`);
      assert.equal(res.statusCode, 400, query);
      assert.equal(res.json().error.code, 'VALIDATION_FAILED');
      assert.doesNotMatch(res.body, /select |drizzle|postgres/i);
    }
    const stillThere = await get('/rest/product/product?limit=1', admin);
    assert.equal(stillThere.json().pagination.total, TOTAL);
  });

  test('when a page past the last is asked, then 200 with empty data and the real total', async () => {
    const res = await get('/rest/product/product?page=1000&limit=100');
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json().data, []);
    assert.equal(res.json().pagination.total, TOTAL);
    assert.equal(res.json().pagination.has_next, false);
    assert.equal(res.json().pagination.has_prev, true);
  });

  test('when undeclared parameters are sent, then they are ignored', async () => {
    const res = await get('/rest/product/product?limit=3&foo=bar&costPrice[gte]=1&password=x');
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().pagination.total, TOTAL);
  });
});
