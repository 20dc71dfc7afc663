import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import {
  adminHeaders,
  createProduct,
  customerHeaders,
  insertCustomer,
} from '../helpers/catalog-factories.ts';

type Json = Record<string, unknown>;

const PUBLIC_PRODUCT_FIELDS = [
  'active',
  'brand',
  'categoryId',
  'currency',
  'description',
  'id',
  'images',
  'inStock',
  'media',
  'name',
  'options',
  'price',
  'priceMax',
  'priceMin',
  'referencePrice',
  'sku',
  'slug',
  'stockStatus',
  'taxClass',
  'vatRate',
  'weightKg',
];
const BACKEND_ONLY = ['costPrice', 'stockQty', 'supplierCode', 'adminNotes', 'createdAt', 'updatedAt'];

const address = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  street: '1 Analytical St',
  city: 'London',
  countryAlpha2: 'GB',
  postalCode: 'N1 1AA',
};

describe('access scopes and owner rows (docs/security.md)', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let aliceId: number;
  let bobId: number;
  let alice: Record<string, string>;
  let bob: Record<string, string>;
  let product: Json;
  let other: Json;

  before(async () => {
    t = await startTestApp();
    admin = await adminHeaders(t.app);
    aliceId = await insertCustomer(t.database.db, { loyaltyPoints: 250 });
    bobId = await insertCustomer(t.database.db);
    alice = await customerHeaders(t.app, aliceId);
    bob = await customerHeaders(t.app, bobId);
    product = await createProduct(t.app, {
      costPrice: 4,
      supplierCode: 'SUP-1',
      adminNotes: 'secret note',
      stockQty: 2,
    });
    other = await createProduct(t.app, { stockQty: 0 });
  });
  after(() => t.close());

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers });

  test('when a guest reads products, then only public fields, with a derived stock status', async () => {
    const res = await get(`/rest/product/product/${product.id}`);
    assert.deepEqual(Object.keys(res.json().data).sort(), PUBLIC_PRODUCT_FIELDS);
    assert.equal(res.json().data.stockStatus, 'low_stock');
    assert.equal(res.json().data.inStock, true);
    const list = await get('/rest/product/product');
    for (const item of list.json().data as Json[]) {
      for (const field of [...BACKEND_ONLY, 'inWishlist']) assert.equal(field in item, false, field);
    }
    assert.doesNotMatch(list.body, /secret note|SUP-1/);
    const empty = (list.json().data as Json[]).find((p) => p.id === other.id)!;
    assert.equal(empty.stockStatus, 'out_of_stock');
  });

  test('when a customer reads products, then inWishlist is added for that customer only', async () => {
    const add = await t.app.inject({
      method: 'POST',
      url: '/rest/customer/wishlist',
      headers: alice,
      payload: { productId: product.id },
    });
    assert.equal(add.statusCode, 201, add.body);
    assert.equal(add.json().data.productId, product.id);
    const again = await t.app.inject({
      method: 'POST',
      url: '/rest/customer/wishlist',
      headers: alice,
      payload: { productId: product.id },
    });
    assert.equal(again.statusCode, 200, 'adding twice keeps one entry');

    const aliceList = await get('/rest/product/product', alice);
    const flags = Object.fromEntries((aliceList.json().data as Json[]).map((p) => [p.id, p.inWishlist]));
    assert.deepEqual(flags, { [product.id as number]: true, [other.id as number]: false });
    for (const field of BACKEND_ONLY) assert.equal(field in aliceList.json().data[0], false, field);
    const bobList = await get('/rest/product/product', bob);
    assert.equal(
      (bobList.json().data as Json[]).every((p) => p.inWishlist === false),
      true,
    );
    const adminOne = await get(`/rest/product/product/${product.id}`, admin);
    assert.equal('inWishlist' in adminOne.json().data, false);
  });

  test('when an admin reads products, then backend fields are there', async () => {
    const res = await get(`/rest/product/product/${product.id}`, admin);
    const data = res.json().data;
    for (const field of BACKEND_ONLY) assert.equal(field in data, true, field);
    assert.equal(data.costPrice, 4);
    assert.equal(data.stockQty, 2);
  });

  test('when customers read the wishlist, then each sees their own; removal by product id', async () => {
    const mine = await get('/rest/customer/wishlist?with=product', alice);
    assert.equal(mine.statusCode, 200);
    assert.deepEqual(
      (mine.json().data as Json[]).map((w) => (w.product as Json).id),
      [product.id],
    );
    assert.equal((await get('/rest/customer/wishlist', bob)).json().pagination.total, 0);
    assert.equal(
      (await get('/rest/customer/wishlist', admin)).json().pagination.total,
      1,
      'the back office reads all',
    );
    assert.equal((await get('/rest/customer/wishlist')).statusCode, 401);
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/rest/customer/wishlist',
      headers: bob,
      payload: { productId: 999999 },
    });
    assert.equal(unknown.statusCode, 422);
    const bobRemoves = await t.app.inject({
      method: 'DELETE',
      url: `/rest/customer/wishlist/${product.id}`,
      headers: bob,
    });
    assert.equal(bobRemoves.statusCode, 404);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/rest/customer/wishlist/${product.id}`,
      headers: alice,
    });
    assert.deepEqual(removed.json(), { success: true });
    assert.equal((await get('/rest/customer/wishlist', alice)).json().pagination.total, 0);
  });

  test('when a customer writes an address, then it is theirs; another customer gets 404 for it', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/rest/customer/address',
      headers: alice,
      payload: address,
    });
    assert.equal(created.statusCode, 201, created.body);
    const id = created.json().data.id;
    assert.equal(created.json().data.customerId, aliceId);
    const spoof = await t.app.inject({
      method: 'POST',
      url: '/rest/customer/address',
      headers: alice,
      payload: { ...address, customerId: bobId },
    });
    assert.equal(spoof.statusCode, 400, 'the owner never comes from the body');

    assert.equal((await get(`/rest/customer/address/${id}`, alice)).statusCode, 200);
    assert.equal((await get(`/rest/customer/address/${id}`, bob)).statusCode, 404);
    assert.equal((await get('/rest/customer/address', bob)).json().pagination.total, 0);
    assert.equal((await get(`/rest/customer/address/item?id=${id}`, bob)).statusCode, 404);
    for (const method of ['PATCH', 'DELETE'] as const) {
      const res = await t.app.inject({
        method,
        url: `/rest/customer/address/${id}`,
        headers: bob,
        payload: method === 'PATCH' ? { city: 'Paris' } : undefined,
      });
      assert.equal(res.statusCode, 404, method);
    }
    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/rest/customer/address/${id}`,
      headers: alice,
      payload: { city: 'Oxford' },
    });
    assert.equal(patched.json().data.city, 'Oxford');
    assert.equal(
      (await get(`/rest/customer/address/${id}?with=customer`, admin)).json().data.customer.id,
      aliceId,
    );
  });

  test('when an admin creates an address, then customerId is required and the role is checked', async () => {
    const missing = await t.app.inject({
      method: 'POST',
      url: '/rest/customer/address',
      headers: admin,
      payload: address,
    });
    assert.equal(missing.statusCode, 400);
    const ok = await t.app.inject({
      method: 'POST',
      url: '/rest/customer/address',
      headers: admin,
      payload: { ...address, customerId: bobId },
    });
    assert.equal(ok.statusCode, 201);
    const noCustomer = await t.app.inject({
      method: 'POST',
      url: '/rest/customer/address',
      headers: admin,
      payload: { ...address, customerId: 999999 },
    });
    assert.equal(noCustomer.statusCode, 422);
    const marketing = await adminHeaders(t.app, [8]);
    const forbidden = await t.app.inject({
      method: 'POST',
      url: '/rest/customer/address',
      headers: marketing,
      payload: { ...address, customerId: bobId },
    });
    assert.equal(forbidden.statusCode, 403);
  });

  test('when customers read customer/customer, then only themselves; the hash is never a field', async () => {
    const me = await get('/rest/customer/customer', alice);
    assert.equal(me.json().pagination.total, 1);
    assert.equal(me.json().data[0].id, aliceId);
    assert.equal(me.json().data[0].loyaltyPoints, 250);
    assert.equal((await get(`/rest/customer/customer/${bobId}`, alice)).statusCode, 404);
    assert.equal((await get('/rest/customer/customer', admin)).json().pagination.total, 2);
    assert.doesNotMatch((await get('/rest/customer/customer', admin)).body, /password|not-a-real-hash/i);
    const selfEdit = await t.app.inject({
      method: 'PATCH',
      url: `/rest/customer/customer/${aliceId}`,
      headers: alice,
      payload: { loyaltyPoints: 99999 },
    });
    assert.equal(selfEdit.statusCode, 403, 'loyaltyPoints is read-only to the customer');
    const hash = await t.app.inject({
      method: 'PATCH',
      url: `/rest/customer/customer/${aliceId}`,
      headers: admin,
      payload: { passwordHash: 'x' },
    });
    assert.equal(hash.statusCode, 400);
  });

  test('when a deleted customer’s token still writes, then 401 (not a foreign-key fault)', async () => {
    const goneId = await insertCustomer(t.database.db);
    const gone = await customerHeaders(t.app, goneId);
    assert.equal(
      (await t.app.inject({ method: 'DELETE', url: `/rest/customer/customer/${goneId}`, headers: admin }))
        .statusCode,
      200,
    );
    const wish = await t.app.inject({
      method: 'POST',
      url: '/rest/customer/wishlist',
      headers: gone,
      payload: { productId: product.id },
    });
    assert.equal(wish.statusCode, 401);
    const addr = await t.app.inject({
      method: 'POST',
      url: '/rest/customer/address',
      headers: gone,
      payload: address,
    });
    assert.equal(addr.statusCode, 401);
  });

  test('when guests or customers read coupons, then 401/403; admins read them', async () => {
    assert.equal((await get('/rest/checkout/coupon')).statusCode, 401);
    assert.equal((await get('/rest/checkout/coupon', alice)).statusCode, 403);
    assert.equal((await get('/rest/checkout/coupon', admin)).statusCode, 200);
  });
});
