import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/db/client.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { adminHeaders, createProduct, unique } from '../helpers/catalog-factories.ts';
import { testEngine } from '../helpers/database.ts';

// Options and variants through the back-office API and the storefront reads (docs/catalog.md).

type Json = Record<string, unknown>;
type Variant = { id: number; sku: string; price: number | null; stockQty?: number; stockStatus: string };

const OPTIONS = [
  { name: 'Size', values: ['S', 'M', 'L'] },
  { name: 'Colour', values: ['Red', 'Blue'] },
];

describe(`product options and variants (${testEngine})`, () => {
  let t: TestApp;
  let admin: Record<string, string>;

  before(async () => {
    t = await startTestApp();
    admin = await adminHeaders(t.app);
  });
  after(async () => t.close());

  const send = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: Json, headers = admin) =>
    t.app.inject({ method, url, headers, payload });
  const guest = (url: string) => t.app.inject({ method: 'GET', url });

  /** A T-shirt in three sizes × two colours, three of the combinations made. */
  async function tee(): Promise<{ product: Json; sku: string }> {
    const sku = unique('TEE');
    const res = await send('POST', '/rest/product/product', {
      name: unique('Tee'),
      sku,
      price: 20,
      options: OPTIONS,
      variants: [
        { sku: `${sku}-S-R`, options: { Size: 'S', Colour: 'Red' }, stockQty: 3 },
        { sku: `${sku}-M-R`, options: { Size: 'M', Colour: 'Red' }, price: 22.5, stockQty: 0 },
        { sku: `${sku}-L-B`, options: { Size: 'L', Colour: 'Blue' }, price: 18, stockQty: 4, active: false },
      ],
    });
    assert.equal(res.statusCode, 201, res.body);
    return { product: res.json().data, sku };
  }

  test('when a product is created with options and variants in one body, then stock, price range and inStock follow its active variants', async () => {
    const { product, sku } = await tee();
    assert.deepEqual(product.options, OPTIONS);
    assert.equal(product.stockQty, 7);
    assert.equal(product.priceMin, 20);
    assert.equal(product.priceMax, 22.5);
    assert.equal(product.inStock, true);
    assert.equal(product.currency, 'EUR');

    const shown = await guest(`/rest/product/product/${product.id}?with=variants`);
    const variants = shown.json().data.variants as Variant[];
    assert.deepEqual(
      variants.map((v) => [v.sku, v.price, v.stockStatus]),
      [
        [`${sku}-S-R`, null, 'low_stock'],
        [`${sku}-M-R`, 22.5, 'out_of_stock'],
      ],
    );
    assert.equal('stockQty' in variants[0], false);
    const listed = await guest(`/rest/product/variant?productId=${product.id}`);
    assert.equal(listed.json().pagination.total, 2);
    const all = await send('GET', `/rest/product/variant?productId=${product.id}`);
    assert.equal(all.json().pagination.total, 3);
  });

  test('when a variant changes, then the product follows in the same write: stock sum, inStock, price range', async () => {
    const { product } = await tee();
    const variants = (await send('GET', `/rest/product/variant?productId=${product.id}&sort=position`)).json()
      .data as Variant[];
    const [small, medium, large] = variants;
    const sold = await send('PATCH', `/rest/product/variant/${small.id}`, { stockQty: 0 });
    assert.equal(sold.statusCode, 200, sold.body);
    let now = (await send('GET', `/rest/product/product/${product.id}`)).json().data;
    assert.equal(now.stockQty, 4);
    assert.equal(now.inStock, false, 'the only stock left is on an inactive variant');
    assert.equal(now.stockStatus, 'out_of_stock');

    await send('PATCH', `/rest/product/variant/${large.id}`, { active: true });
    now = (await send('GET', `/rest/product/product/${product.id}`)).json().data;
    assert.equal(now.inStock, true);
    assert.deepEqual([now.priceMin, now.priceMax], [18, 22.5]);

    // The product's own price moves the variants that take it.
    await send('PATCH', `/rest/product/product/${product.id}`, { price: 30 });
    now = (await send('GET', `/rest/product/product/${product.id}`)).json().data;
    assert.deepEqual([now.priceMin, now.priceMax], [18, 30]);
    await send('DELETE', `/rest/product/variant/${medium.id}`);
    now = (await send('GET', `/rest/product/product/${product.id}`)).json().data;
    assert.deepEqual([now.priceMin, now.priceMax], [18, 30]);
    assert.equal(now.stockQty, 4);
  });

  test('when stockQty is written on a product with several variants, then 400 naming it; with one, it goes to its variant', async () => {
    const { product } = await tee();
    const refused = await send('PATCH', `/rest/product/product/${product.id}`, { stockQty: 5 });
    assert.equal(refused.statusCode, 400);
    assert.equal(refused.json().error.details[0].field, 'stockQty');

    const plain = await createProduct(t.app, { stockQty: 4 });
    const patched = await send('PATCH', `/rest/product/product/${plain.id}`, { stockQty: 9, weightKg: 1.5 });
    assert.equal(patched.statusCode, 200, patched.body);
    assert.equal(patched.json().data.stockQty, 9);
    const [variant] = (await send('GET', `/rest/product/variant?productId=${plain.id}`)).json()
      .data as Variant[];
    assert.equal(variant.id, plain.id, "a plain variant has its product's id");
    assert.equal(variant.stockQty, 9);
    assert.equal(variant.sku, plain.sku);
    assert.equal(variant.price, null);
  });

  test('when variants do not fit the declared options, then 400 naming the field and nothing is written', async () => {
    const sku = unique('BAD');
    const cases: [Json, string][] = [
      [{ options: OPTIONS }, 'variants'],
      [
        { options: OPTIONS, variants: [{ sku: `${sku}-1`, options: { Size: 'XL', Colour: 'Red' } }] },
        'variants.0.options',
      ],
      [{ options: OPTIONS, variants: [{ sku: `${sku}-1`, options: { Size: 'S' } }] }, 'variants.0.options'],
      [
        {
          options: OPTIONS,
          variants: [
            { sku: `${sku}-1`, options: { Size: 'S', Colour: 'Red' } },
            { sku: `${sku}-2`, options: { Colour: 'Red', Size: 'S' } },
          ],
        },
        'variants.1.options',
      ],
      [
        {
          options: OPTIONS,
          stockQty: 3,
          variants: [{ sku: `${sku}-1`, options: { Size: 'S', Colour: 'Red' } }],
        },
        'stockQty',
      ],
      [{ variants: [{ sku: `${sku}-1`, options: {} }] }, 'variants'],
    ];
    for (const [extra, field] of cases) {
      const res = await send('POST', '/rest/product/product', { name: 'Bad', sku, price: 1, ...extra });
      assert.equal(res.statusCode, 400, res.body);
      assert.equal(res.json().error.details[0].field, field, res.body);
    }
    const found = await send('GET', `/rest/product/product?sku=${sku}`);
    assert.equal(found.json().pagination.total, 0);
  });

  test('when a variant is added through product/variant, then its options are checked and a plain product takes none', async () => {
    const { product, sku } = await tee();
    const added = await send('POST', '/rest/product/variant', {
      productId: product.id,
      sku: `${sku}-S-B`,
      options: { Size: 'S', Colour: 'Blue' },
      price: 25,
      stockQty: 2,
    });
    assert.equal(added.statusCode, 201, added.body);
    assert.equal(added.json().data.price, 25);
    const now = (await send('GET', `/rest/product/product/${product.id}`)).json().data;
    assert.deepEqual([now.priceMax, now.stockQty], [25, 9]);

    const misfit = await send('POST', '/rest/product/variant', {
      productId: product.id,
      sku: `${sku}-X`,
      options: { Size: 'S', Fabric: 'Silk' },
    });
    assert.equal(misfit.statusCode, 400);
    const twice = await send('POST', '/rest/product/variant', {
      productId: product.id,
      sku: `${sku}-S-B2`,
      options: { Size: 'S', Colour: 'Blue' },
    });
    assert.equal(twice.statusCode, 409);

    const plain = await createProduct(t.app);
    const refused = await send('POST', '/rest/product/variant', {
      productId: plain.id,
      sku: unique('P'),
      options: {},
    });
    assert.equal(refused.statusCode, 422);
    const guestWrite = await t.app.inject({
      method: 'POST',
      url: '/rest/product/variant',
      payload: { productId: product.id, sku: unique('G') },
    });
    assert.equal(guestWrite.statusCode, 401);
  });

  test("when a variant's price changes, then its reference price is the lowest of its own last 30 days (Omnibus per variant)", async () => {
    const { product } = await tee();
    const [, medium] = (
      await send('GET', `/rest/product/variant?productId=${product.id}&sort=position`)
    ).json().data as Variant[];
    await send('PATCH', `/rest/product/variant/${medium.id}`, { price: 19 });
    const raised = await send('PATCH', `/rest/product/variant/${medium.id}`, { price: 24 });
    assert.equal(raised.json().data.referencePrice, 19);
    const rows = await queryRows<{ price: number }>(
      t.app.db,
      sql`select price from product_price_history where variant_id = ${medium.id} order by valid_from, id`,
    );
    assert.deepEqual(
      rows.map((r) => r.price),
      [2250, 1900, 2400],
    );
    // The product's own reference price answers what it answered before variants.
    assert.equal((await guest(`/rest/product/product/${product.id}`)).json().data.referencePrice, null);
  });

  test('when a product is inactive, then guests see none of its variants', async () => {
    const { product } = await tee();
    await send('PATCH', `/rest/product/product/${product.id}`, { active: false });
    const listed = await guest(`/rest/product/variant?productId=${product.id}`);
    assert.equal(listed.json().pagination.total, 0);
  });
});
