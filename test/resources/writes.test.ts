import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import {
  adminHeaders,
  createCategory,
  createProduct,
  customerHeaders,
  insertCustomer,
} from '../helpers/catalog-factories.ts';

type Json = Record<string, unknown>;

describe('back-office writes through the resource framework', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let productsRole: Record<string, string>;

  before(async () => {
    t = await startTestApp();
    admin = await adminHeaders(t.app);
    productsRole = await adminHeaders(t.app, [5]);
  });
  after(() => t.close());

  const send = (method: 'POST' | 'PATCH' | 'DELETE' | 'PUT', url: string, payload?: Json, headers = admin) =>
    t.app.inject({ method, url, headers, payload });

  test('when a product is created with only the required fields, then defaults fill the rest', async () => {
    const res = await send(
      'POST',
      '/rest/product/product',
      { name: 'Über Mug', sku: 'W-1', price: 12.3 },
      productsRole,
    );
    assert.equal(res.statusCode, 201, res.body);
    const data = res.json().data;
    assert.equal(res.json().success, true);
    assert.equal(data.slug, 'uber-mug');
    assert.equal(data.price, 12.3);
    assert.equal(data.vatRate, 19);
    assert.equal(data.currency, 'EUR');
    assert.equal(data.active, true);
    assert.equal(data.stockQty, 0);
    const twin = await send('POST', '/rest/product/product', { name: 'Über Mug', sku: 'W-2', price: 1 });
    assert.equal(twin.json().data.slug, 'uber-mug-2', 'derived slugs stay unique');
  });

  test('when the default VAT rate and currency settings change, then new products take the rate and every product shows the currency', async () => {
    const before = (await createProduct(t.app)) as Json;
    assert.equal(before.currency, 'EUR');
    await send('PUT', '/rest/system/setting/default_vat_rate', { value: 21 });
    await send('PUT', '/rest/system/setting/currency', { value: 'RON' });
    const data = (await createProduct(t.app)) as Json;
    assert.equal(data.vatRate, 21);
    assert.equal(data.currency, 'RON');
    // One currency: the shop's setting, for products made before the change too.
    const older = await t.app.inject({ method: 'GET', url: `/rest/product/product/${before.id}` });
    assert.equal(older.json().data.currency, 'RON');
    const listed = await t.app.inject({ method: 'GET', url: `/rest/product/product?id=${before.id}` });
    assert.equal(listed.json().data[0].currency, 'RON');
    const explicit = (await createProduct(t.app, { vatRate: 5.5 })) as Json;
    assert.equal(explicit.vatRate, 5.5);
    await send('DELETE', '/rest/system/setting/default_vat_rate');
    await send('DELETE', '/rest/system/setting/currency');
  });

  test('when a product write names a currency, then 400 naming it as read-only and nothing is written', async () => {
    const created = await send('POST', '/rest/product/product', {
      name: 'C',
      sku: 'CUR-1',
      price: 1,
      currency: 'USD',
    });
    assert.equal(created.statusCode, 400);
    assert.deepEqual(created.json().error.details, [{ field: 'currency', message: 'is read-only' }]);
    const product = (await createProduct(t.app)) as Json;
    const patched = await send('PATCH', `/rest/product/product/${product.id}`, { currency: 'USD' });
    assert.equal(patched.statusCode, 400);
    assert.deepEqual(patched.json().error.details, [{ field: 'currency', message: 'is read-only' }]);
    const found = await t.app.inject({ method: 'GET', url: '/rest/product/product?sku=CUR-1' });
    assert.equal(found.json().data.length, 0);
  });

  test('when a body carries unknown or read-only fields, then 400 and nothing is written', async () => {
    for (const extra of [
      { id: 77 },
      { referencePrice: 1 },
      { stockStatus: 'in_stock' },
      { createdAt: '2020-01-01T00:00:00Z' },
      { isAdmin: true },
      { inWishlist: true },
    ]) {
      const res = await send('POST', '/rest/product/product', {
        name: 'X',
        sku: `RO-${Object.keys(extra)[0]}`,
        price: 1,
        ...extra,
      });
      assert.equal(res.statusCode, 400, JSON.stringify(extra));
      assert.equal(res.json().error.code, 'VALIDATION_FAILED');
    }
    const list = await t.app.inject({ method: 'GET', url: '/rest/product/product?q=RO-', headers: admin });
    assert.equal(list.json().pagination.total, 0);
    const coupon = await send('POST', '/rest/checkout/coupon', {
      code: 'RO',
      type: 'fixed',
      value: 5,
      usedCount: 3,
    });
    assert.equal(coupon.statusCode, 400, 'usedCount is read-only');
  });

  test('when required fields are missing or values out of bounds, then 400 naming them', async () => {
    const missing = await send('POST', '/rest/product/product', { name: 'No sku' });
    assert.equal(missing.statusCode, 400);
    const fields = (missing.json().error.details as Json[]).map((d) => d.field).sort();
    assert.deepEqual(fields, ['price', 'sku']);
    for (const bad of [
      { price: -1 },
      { price: 1.999 },
      { price: 'abc' },
      { stockQty: -1 },
      { vatRate: 101 },
      { name: 'x'.repeat(201) },
      { images: ['not a url'] },
    ]) {
      const res = await send('POST', '/rest/product/product', { name: 'Bad', sku: 'BAD', price: 1, ...bad });
      assert.equal(res.statusCode, 400, JSON.stringify(bad));
    }
  });

  test('when a unique value is taken, then 409 CONFLICT naming the field', async () => {
    await createProduct(t.app, { sku: 'DUP-1', slug: 'dup-one' });
    const sku = await send('POST', '/rest/product/product', { name: 'Again', sku: 'DUP-1', price: 1 });
    assert.equal(sku.statusCode, 409);
    assert.equal(sku.json().error.code, 'CONFLICT');
    assert.equal(sku.json().error.details[0].field, 'sku');
    const slug = await send('POST', '/rest/product/product', {
      name: 'Again',
      sku: 'DUP-2',
      price: 1,
      slug: 'dup-one',
    });
    assert.equal(slug.json().error.details[0].field, 'slug');
    await send('POST', '/rest/checkout/coupon', { code: 'SUMMER', type: 'percent', value: 10 });
    const code = await send('POST', '/rest/checkout/coupon', { code: 'summer', type: 'fixed', value: 5 });
    assert.equal(code.statusCode, 409, 'coupon codes are unique case-insensitively');
    assert.equal(code.json().error.details[0].field, 'code');
    assert.doesNotMatch(code.body, /lower|unique|index|constraint/i);
  });

  test('when a reference does not exist, then 422 UNPROCESSABLE', async () => {
    const res = await send('POST', '/rest/product/product', {
      name: 'Orphan',
      sku: 'ORPH',
      price: 1,
      categoryId: 999999,
    });
    assert.equal(res.statusCode, 422);
    assert.equal(res.json().error.code, 'UNPROCESSABLE');
    assert.equal(res.json().error.details[0].field, 'categoryId');
  });

  test('when the caller lacks the write role, then 403; a customer 403; a guest 401', async () => {
    const payload = { name: 'Nope', sku: 'NOPE', price: 1 };
    assert.equal(
      (await send('POST', '/rest/product/product', payload, await adminHeaders(t.app, [8]))).statusCode,
      403,
    );
    const customer = await customerHeaders(t.app, await insertCustomer(t.database.db));
    assert.equal((await send('POST', '/rest/product/product', payload, customer)).statusCode, 403);
    assert.equal(
      (await t.app.inject({ method: 'POST', url: '/rest/product/product', payload })).statusCode,
      401,
    );
  });

  test('when a product is patched and deleted, then 200 with the object, then {success:true}, then 404', async () => {
    const product = await createProduct(t.app, { name: 'Patch me' });
    const patched = await send('PATCH', `/rest/product/product/${product.id}`, {
      name: 'Patched',
      stockQty: 4,
      brand: null,
    });
    assert.equal(patched.statusCode, 200);
    assert.equal(patched.json().data.name, 'Patched');
    assert.equal(patched.json().data.slug, product.slug, 'the slug stays stable');
    assert.equal(patched.json().data.brand, null);
    assert.equal((await send('PATCH', `/rest/product/product/${product.id}`, {})).statusCode, 400);
    assert.equal((await send('PATCH', '/rest/product/product/999999', { name: 'x' })).statusCode, 404);
    const removed = await send('DELETE', `/rest/product/product/${product.id}`);
    assert.deepEqual(removed.json(), { success: true });
    assert.equal((await send('DELETE', `/rest/product/product/${product.id}`)).statusCode, 404);
  });

  test('when a category is still used or would become its own ancestor, then 409 / 422', async () => {
    const parent = await createCategory(t.app);
    const child = await createCategory(t.app, { parentId: parent.id });
    await createProduct(t.app, { categoryId: child.id });
    assert.equal((await send('DELETE', `/rest/product/category/${child.id}`)).statusCode, 409);
    assert.equal((await send('DELETE', `/rest/product/category/${parent.id}`)).statusCode, 409);
    const cycle = await send('PATCH', `/rest/product/category/${parent.id}`, { parentId: child.id });
    assert.equal(cycle.statusCode, 422);
    assert.equal(
      (await send('PATCH', `/rest/product/category/${parent.id}`, { parentId: parent.id })).statusCode,
      422,
    );
  });

  test('when shipping methods, coupons and gifts are written, then money is decimal in and out', async () => {
    const transport = await send('POST', '/rest/checkout/transport', {
      name: 'Courier',
      price: 4.99,
      freeShippingThreshold: null,
      includedWeightKg: 2.5,
      overweightPricePerKg: 0.5,
      codFee: 1.25,
    });
    assert.equal(transport.statusCode, 201, transport.body);
    assert.deepEqual(
      { ...transport.json().data, id: 0, createdAt: 0, updatedAt: 0 },
      {
        id: 0,
        name: 'Courier',
        description: '',
        price: 4.99,
        freeShippingThreshold: null,
        includedWeightKg: 2.5,
        overweightPricePerKg: 0.5,
        codFee: 1.25,
        taxClass: null,
        position: 0,
        active: true,
        weightBands: [],
        shippingZone: null,
        translations: {},
        createdAt: 0,
        updatedAt: 0,
      },
    );
    const tooMuch = await send('POST', '/rest/checkout/coupon', {
      code: 'HUGE',
      type: 'percent',
      value: 150,
    });
    assert.equal(tooMuch.statusCode, 400);
    const fixed = await send('POST', '/rest/checkout/coupon', {
      code: 'FIVE',
      type: 'fixed',
      value: 5.5,
      endsAt: '2030-01-01T00:00:00Z',
    });
    assert.equal(fixed.json().data.value, 5.5);
    assert.equal(fixed.json().data.usedCount, 0);
    assert.equal(fixed.json().data.endsAt, '2030-01-01T00:00:00.000Z');
    const badType = await send('POST', '/rest/checkout/coupon', { code: 'BAD', type: 'free', value: 5 });
    assert.equal(badType.statusCode, 400);
    const product = await createProduct(t.app);
    const gift = await send(
      'POST',
      '/rest/checkout/gift',
      { productIds: [product.id], minSubtotal: 100 },
      await adminHeaders(t.app, [8]),
    );
    assert.equal(gift.statusCode, 201, gift.body);
    assert.equal(gift.json().data.maxQty, 1);
    const gifts = await t.app.inject({ method: 'GET', url: '/rest/checkout/gift?with=products' });
    assert.deepEqual(
      (gifts.json().data[0].products as Json[]).map((p) => p.id),
      [product.id],
    );
  });
});
