import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { categories } from '../../src/modules/catalog/catalog.tables.ts';
import { setStoredSetting } from '../helpers/catalog-factories.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { adminToken, call, fillCart, makeCustomer, makeProduct, totals } from '../checkout/fixtures.ts';

// Catalog promotions through HTTP (docs/promotions.md): the price shoppers see everywhere is the
// sale price while the promotion runs, computed by the reading statement against the time.

let t: TestApp;
let marketing: string;
let catalogAdmin: string;

before(async () => {
  t = await startTestApp();
  marketing = await adminToken(t.app, [8]);
  catalogAdmin = await adminToken(t.app, [3]);
  await setStoredSetting(t.database.db, 'price_tracking_enabled', true);
});
after(() => t.close());

async function category(parentId: number | null = null): Promise<number> {
  const slug = `c-${Math.random().toString(36).slice(2)}`;
  const [row] = await t.app.db.insert(categories).values({ name: slug, slug, parentId }).returning({ id: categories.id });
  return row.id;
}

async function createPromotion(body: Record<string, unknown>) {
  return call(t.app, 'POST', '/rest/checkout/promotion', { token: marketing }, { kind: 'catalog', name: 'Sale', ...body });
}

type Product = { id: number; price: number; priceMin: number; referencePrice: number | null; salePrice?: number | null };

async function listed(categoryId: number): Promise<Product[]> {
  const res = await call(t.app, 'GET', `/rest/product/product?categoryId=${categoryId}`);
  assert.equal(res.statusCode, 200, res.body);
  return (res.json() as { data: Product[] }).data;
}

async function priceRange(categoryId: number) {
  const res = await call(t.app, 'GET', `/rest/product/product/facets?categoryId=${categoryId}`);
  assert.equal(res.statusCode, 200, res.body);
  return (res.json() as { data: { price: { min: number; max: number } } }).data.price;
}

describe('catalog promotions', () => {
  // First of the file: every sale so far names categories, so a read skips sale_price for a product
  // in no category on sale; the later tests add sales by brand and by product.
  test('when every sale names categories, then a product moved into one on sale or below it shows the sale price at once, one elsewhere its own, and a sale by product reaches any category', async () => {
    const superuser = await adminToken(t.app, [1]);
    const onSale = await category();
    const below = await category(onSale);
    const elsewhere = await category();
    const created = await createPromotion({ conditions: { categoryIds: [onSale] }, action: { type: 'percent', value: 25 } });
    assert.equal(created.statusCode, 201, created.body);
    const product = await makeProduct(t.app.db, { price: 1000, categoryId: elsewhere });
    const other = await makeProduct(t.app.db, { price: 1000, categoryId: elsewhere });
    const price = async (id: number) =>
      ((await call(t.app, 'GET', `/rest/product/product/${id}`)).json() as { data: Product }).data.price;
    assert.deepEqual((await listed(elsewhere)).map((p) => p.price), [10, 10]);
    const moveTo = (categoryId: number) =>
      call(t.app, 'PATCH', `/rest/product/product/${product}`, { token: superuser }, { categoryId });
    assert.equal((await moveTo(below)).statusCode, 200);
    assert.equal(await price(product), 7.5);
    assert.deepEqual((await listed(below)).map((p) => [p.price, p.referencePrice]), [[7.5, 10]]);
    assert.equal((await moveTo(elsewhere)).statusCode, 200);
    assert.equal(await price(product), 10);
    const byProduct = await createPromotion({ conditions: { productIds: [other] }, action: { type: 'fixed', value: 1 } });
    assert.equal(byProduct.statusCode, 201, byProduct.body);
    assert.deepEqual([await price(product), await price(other)], [10, 9]);
    for (const id of [created, byProduct].map((r) => (r.json() as { data: { id: number } }).data.id)) {
      assert.equal((await call(t.app, 'DELETE', `/rest/checkout/promotion/${id}`, { token: marketing })).statusCode, 200);
    }
  });

  test('when a percent sale runs on a parent category, then a product below it shows the sale price in the list, its page, the facets, the cart and the quote', async () => {
    const parent = await category();
    const child = await category(parent);
    const product = await makeProduct(t.app.db, { price: 1999, categoryId: child });
    const created = await createPromotion({ conditions: { categoryIds: [parent] }, action: { type: 'percent', value: 15 } });
    assert.equal(created.statusCode, 201, created.body);
    // 15 % of 19.99 = 2.9985 → 3.00 off per unit
    const [row] = await listed(child);
    assert.deepEqual([row.price, row.priceMin, row.referencePrice], [16.99, 16.99, 19.99]);
    const page = await call(t.app, 'GET', `/rest/product/product/${product}`);
    assert.equal((page.json() as { data: Product }).data.price, 16.99);
    const customer = await makeCustomer(t.app);
    const signedIn = await call(t.app, 'GET', `/rest/product/product?categoryId=${child}`, { token: customer.token });
    assert.equal((signedIn.json() as { data: Product[] }).data[0].price, 16.99, 'a signed-in customer sees it too');
    assert.deepEqual(await priceRange(child), { min: 16.99, max: 16.99 });
    const who = await fillCart(t.app, {}, [[product, 3]]);
    const cart = await call(t.app, 'GET', '/rest/cart', who);
    assert.equal((cart.json() as { data: { lines: { unitPrice: number }[] } }).data.lines[0].unitPrice, 16.99);
    const quote = (await totals(t.app, who)).json() as { subtotal: number; total: number; promotionDiscount: number };
    assert.deepEqual([quote.subtotal, quote.total, quote.promotionDiscount], [50.97, 50.97, 0]);
    const backOffice = await call(t.app, 'GET', `/rest/product/product/${product}`, { token: catalogAdmin });
    const stored = (backOffice.json() as { data: Product }).data;
    assert.deepEqual([stored.price, stored.salePrice], [19.99, 16.99], 'the back office edits the regular price');
  });

  test('when a sale covers a product with variants, then the list and the page show each variant\'s own price reduced', async () => {
    const cat = await category();
    const sku = `V-${Date.now()}`;
    const made = await call(t.app, 'POST', '/rest/product/product', { token: await adminToken(t.app, [1]) }, {
      sku,
      slug: sku.toLowerCase(),
      name: 'Tee on sale',
      price: 20,
      categoryId: cat,
      options: [{ name: 'Size', values: ['S', 'M'] }],
      variants: [
        { sku: `${sku}-S`, options: { Size: 'S' }, stockQty: 3 },
        { sku: `${sku}-M`, options: { Size: 'M' }, price: 22.5, stockQty: 3 },
      ],
    });
    assert.equal(made.statusCode, 201, made.body);
    const id = (made.json() as { data: { id: number } }).data.id;
    const created = await createPromotion({ conditions: { categoryIds: [cat] }, action: { type: 'percent', value: 10 } });
    assert.equal(created.statusCode, 201, created.body);
    type Shown = Product & { priceMax: number; variants: { sku: string; price: number | null }[] };
    const list = await call(t.app, 'GET', `/rest/product/product?categoryId=${cat}&with=variants`);
    const page = await call(t.app, 'GET', `/rest/product/product/${id}?with=variants`);
    for (const shown of [(list.json() as { data: Shown[] }).data[0], (page.json() as { data: Shown }).data]) {
      assert.deepEqual([shown.price, shown.priceMin, shown.priceMax], [18, 18, 20.25]);
      assert.deepEqual(shown.variants.map((v) => [v.sku, v.price]), [[`${sku}-S`, null], [`${sku}-M`, 20.25]]);
    }
  });

  test('when a fixed sale is larger than a brand\'s price, then the price is 0, never negative', async () => {
    const cat = await category();
    await makeProduct(t.app.db, { price: 300, categoryId: cat, brand: 'Cheapo' });
    const created = await createPromotion({ conditions: { brands: ['Cheapo'] }, action: { type: 'fixed', value: 5 } });
    assert.equal(created.statusCode, 201, created.body);
    assert.equal((await listed(cat))[0].price, 0);
  });

  test('when a sale ends, then the regular price is back in the list, the facets and the quote without any write', async () => {
    const cat = await category();
    const product = await makeProduct(t.app.db, { price: 1000, categoryId: cat });
    // A sale by category too: product reads price the two kinds apart (docs/promotions.md).
    const byCategory = await category();
    const other = await makeProduct(t.app.db, { price: 2000, categoryId: byCategory });
    const endsAt = new Date(Date.now() + 1500);
    for (const conditions of [{ productIds: [product] }, { categoryIds: [byCategory] }]) {
      const created = await createPromotion({
        conditions,
        action: { type: 'percent', value: 50 },
        endsAt: endsAt.toISOString(),
      });
      assert.equal(created.statusCode, 201, created.body);
    }
    const who = await fillCart(t.app, {}, [[product, 2]]);
    const subtotal = async () => ((await totals(t.app, who)).json() as { subtotal: number }).subtotal;
    // Each asked twice: kept from the second ask, so the end must drop the kept answers.
    for (let ask = 0; ask < 2; ask++) {
      assert.equal((await listed(cat))[0].price, 5);
      assert.equal((await listed(byCategory))[0].price, 10);
      assert.deepEqual(await priceRange(cat), { min: 5, max: 5 });
      assert.equal(await subtotal(), 10);
    }
    await sleep(endsAt.getTime() - Date.now() + 50);
    assert.equal((await listed(cat))[0].price, 10);
    assert.equal((await listed(byCategory))[0].price, 20);
    assert.equal((await listed(byCategory))[0].id, other);
    assert.deepEqual(await priceRange(cat), { min: 10, max: 10 });
    assert.equal(await subtotal(), 20);
  });

  test('when a sale has not started, then shoppers see the regular price', async () => {
    const cat = await category();
    const product = await makeProduct(t.app.db, { price: 1000, categoryId: cat });
    const created = await createPromotion({
      conditions: { productIds: [product] },
      action: { type: 'percent', value: 50 },
      startsAt: new Date(Date.now() + 86_400_000).toISOString(),
    });
    assert.equal(created.statusCode, 201, created.body);
    assert.equal((await listed(cat))[0].price, 10);
  });

  test('when a category is made or moved below one on sale, then its products show the sale price, in the quote too; moved out, the regular one', async () => {
    const superuser = await adminToken(t.app, [1]);
    const onSale = await category();
    const elsewhere = await category();
    const created = await createPromotion({ conditions: { categoryIds: [onSale] }, action: { type: 'percent', value: 10 } });
    assert.equal(created.statusCode, 201, created.body);
    const made = await call(t.app, 'POST', '/rest/product/category', { token: superuser }, {
      name: 'Made',
      slug: `made-${Date.now()}`,
      parentId: onSale,
    });
    assert.equal(made.statusCode, 201, made.body);
    const madeId = (made.json() as { data: { id: number } }).data.id;
    await makeProduct(t.app.db, { price: 2000, categoryId: madeId });
    assert.equal((await listed(madeId))[0].price, 18);
    const moved = await category(elsewhere);
    const product = await makeProduct(t.app.db, { price: 1000, categoryId: moved });
    const page = () => call(t.app, 'GET', `/rest/product/product/${product}`);
    const price = async () => ((await page()).json() as { data: Product }).data.price;
    assert.equal(await price(), 10);
    assert.equal(await price(), 10); // kept from the second ask
    const move = (parentId: number) =>
      call(t.app, 'PATCH', `/rest/product/category/${moved}`, { token: superuser }, { parentId });
    const who = await fillCart(t.app, {}, [[product, 1]]);
    const quoted = async () => ((await totals(t.app, who)).json() as { subtotal: number }).subtotal;
    assert.equal(await quoted(), 10);
    assert.equal((await move(onSale)).statusCode, 200);
    assert.equal(await price(), 9);
    assert.equal((await listed(moved))[0].price, 9);
    assert.equal(await quoted(), 9);
    assert.equal((await move(elsewhere)).statusCode, 200);
    assert.equal(await price(), 10);
    assert.equal(await quoted(), 10);
  });

  test('when a running sale is paused, edited or deleted, then the price follows at once', async () => {
    const cat = await category();
    await makeProduct(t.app.db, { price: 1000, categoryId: cat });
    const created = await createPromotion({ conditions: { categoryIds: [cat] }, action: { type: 'percent', value: 20 } });
    const id = (created.json() as { data: { id: number } }).data.id;
    assert.equal((await listed(cat))[0].price, 8);
    assert.equal((await listed(cat))[0].price, 8); // kept from the second ask
    const path = `/rest/checkout/promotion/${id}`;
    const edit = (body: Record<string, unknown>) => call(t.app, 'PATCH', path, { token: marketing }, body);
    assert.equal((await edit({ action: { type: 'fixed', value: 1.5 } })).statusCode, 200);
    assert.equal((await listed(cat))[0].price, 8.5);
    assert.equal((await edit({ active: false })).statusCode, 200);
    assert.equal((await listed(cat))[0].price, 10);
    assert.equal((await edit({ active: true })).statusCode, 200);
    assert.equal((await listed(cat))[0].price, 8.5);
    assert.equal((await call(t.app, 'DELETE', path, { token: marketing })).statusCode, 200);
    assert.equal((await listed(cat))[0].price, 10);
  });

  test('when a catalog promotion carries a cart condition or action, then the write is a 400 naming it', async () => {
    const res = await createPromotion({ conditions: { minSubtotal: 10 }, action: { type: 'tiered', tiers: [{ minSubtotal: 1, percent: 5 }] } });
    assert.equal(res.statusCode, 400, res.body);
    const fields = (res.json() as { error: { details: { field: string }[] } }).error.details.map((d) => d.field);
    assert.deepEqual(fields.sort(), ['action.type', 'conditions.minSubtotal']);
  });
});
