import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';

describe('a method the path does not take', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  test('when the path exists for other methods, then 405 METHOD_NOT_ALLOWED with an Allow header', async () => {
    for (const [method, url, allow] of [
      ['PUT', '/rest/product/product/1', 'DELETE, GET, HEAD, PATCH'],
      ['PUT', '/rest/product/product?limit=1', 'GET, HEAD, POST'],
      ['DELETE', '/rest/checkout/place-order', 'POST'],
      ['POST', '/rest/cart/', 'GET, HEAD'],
    ] as const) {
      const res = await t.app.inject({ method, url });
      assert.equal(res.statusCode, 405, `${method} ${url}`);
      assert.equal(res.headers.allow, allow, `${method} ${url}`);
      assert.equal(res.json().error.code, 'METHOD_NOT_ALLOWED');
    }
  });

  test('when no route has the path, then 404 NOT_FOUND without an Allow header', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/rest/nothing/here' });
    assert.equal(res.statusCode, 404);
    assert.equal(res.headers.allow, undefined);
    assert.equal(res.json().error.code, 'NOT_FOUND');
  });
});
