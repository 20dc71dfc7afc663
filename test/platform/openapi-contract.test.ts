import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';

// What generators and clients rely on in the document (docs/api.md): names, security, headers,
// tags and the getting-started page. npm run lint:api checks it against Redocly and Spectral.

interface Operation {
  operationId?: string;
  description?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: { in: string; name: string }[];
  responses: Record<string, { headers?: Record<string, unknown> }>;
}
interface Document {
  info: { description: string };
  servers?: { url: string }[];
  tags: { name: string; description: string }[];
  'x-tagGroups': { name: string; tags: string[] }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; headers: Record<string, unknown> };
}

describe('the OpenAPI document as clients see it', () => {
  let t: TestApp;
  let doc: Document;
  const operations: [string, string, Operation][] = [];
  before(async () => {
    t = await startTestApp();
    doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) operations.push([method, path, op]);
    }
  });
  after(() => t.close());

  const op = (method: string, path: string) => doc.paths[path]?.[method] as Operation;

  test('when generated, then every operation has a unique operationId and a description', () => {
    const ids = operations.map(([, , o]) => o.operationId);
    assert.ok(ids.every(Boolean));
    assert.equal(new Set(ids).size, ids.length);
    assert.deepEqual(
      operations.filter(([, , o]) => !o.description).map(([m, p]) => `${m} ${p}`),
      [],
    );
    assert.equal(op('get', '/rest/product/product').operationId, 'listProducts');
    assert.equal(op('get', '/rest/product/product/{id}').operationId, 'getProduct');
    assert.equal(op('get', '/rest/product/product/item').operationId, 'findProduct');
    assert.equal(op('patch', '/rest/product/category/{id}').operationId, 'updateCategory');
    assert.equal(op('post', '/rest/checkout/place-order').operationId, 'placeOrder');
    assert.equal(op('post', '/rest/auth/customer/login').operationId, 'login');
    assert.equal(op('post', '/rest/order/order/{id}/transition').operationId, 'transitionOrder');
  });

  test('when generated, then the entities have the names clients import', () => {
    for (const name of [
      'Product',
      'Category',
      'Cart',
      'Order',
      'Customer',
      'Address',
      'Transport',
      'Coupon',
    ]) {
      assert.ok(doc.components.schemas[name], name);
    }
    for (const name of ['Gift', 'Totals', 'TokenPair', 'ErrorBody', 'Pagination']) {
      assert.ok(doc.components.schemas[name], name);
    }
  });

  test('when a token is optional, then security lists anonymous and bearer; when needed, bearer only', () => {
    for (const [method, path] of [
      ['get', '/rest/cart'],
      ['post', '/rest/v1/checkout/totals'],
      ['post', '/rest/checkout/place-order'],
      ['get', '/rest/product/product'],
      ['get', '/rest/cms/reel'],
    ]) {
      assert.deepEqual(op(method, path).security, [{}, { bearer: [] }], `${method} ${path}`);
    }
    assert.deepEqual(op('get', '/rest/order/order').security, [{ bearer: [] }]);
    assert.deepEqual(op('post', '/rest/auth/customer/login').security, []);
  });

  test('when an answer carries headers, then they are declared', () => {
    const login = op('post', '/rest/auth/customer/login');
    assert.ok(login.parameters?.some((p) => p.in === 'header' && p.name === 'x-cart-token'));
    const addItem = op('post', '/rest/cart/items').responses['200'].headers ?? {};
    assert.ok(addItem['X-Cart-Token'] && addItem['X-Request-Id']);
    const list = op('get', '/rest/product/product').responses;
    assert.ok(list['200'].headers?.ETag && list['304']);
    assert.ok(list['429'].headers?.['Retry-After']);
    assert.ok(op('post', '/rest/checkout/place-order').responses['201'].headers?.['Idempotent-Replayed']);
  });

  test('when a path has a parameter, then one name serves every method of it', () => {
    const wishlist = doc.paths['/rest/customer/wishlist/{id}'];
    assert.ok(wishlist.get && wishlist.delete);
    assert.ok(doc.paths['/rest/customer/wishlist/product/{productId}'].delete);
    const byShape = new Map<string, string>();
    for (const path of Object.keys(doc.paths)) {
      const shape = path.replace(/\{[^}]+\}/g, '{}');
      assert.ok(!byShape.has(shape), `${path} and ${byShape.get(shape)}`);
      byShape.set(shape, path);
    }
  });

  test('when the docs open, then the getting-started page, described tags in groups and a server come first', () => {
    const page = readFileSync(new URL('../../docs/getting-started.md', import.meta.url), 'utf8');
    assert.ok(doc.info.description.length > 1000);
    assert.ok(page.includes(doc.info.description.slice(0, 200)));
    assert.match(doc.info.description, /## The guest cart/);
    assert.ok(doc.servers?.length);
    const used = new Set(operations.flatMap(([, , o]) => o.tags ?? []));
    assert.deepEqual(doc.tags.map((tag) => tag.name).sort(), [...used].sort());
    assert.ok(doc.tags.every((tag) => tag.description));
    assert.deepEqual(doc['x-tagGroups'].flatMap((g) => g.tags).sort(), [...used].sort());
  });
});
