import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/db/client.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { adminHeaders, unique } from '../helpers/catalog-factories.ts';
import { testEngine } from '../helpers/database.ts';
import {
  adminToken,
  call,
  fillCart,
  makeGift,
  makeProduct,
  makeTransport,
  placeOrder,
  totals,
  type Who,
} from './fixtures.ts';

// The cart, the totals, place-order, gifts and cancellation per variant (docs/catalog.md, "Cart, checkout and orders per variant").

type Line = {
  productId: number;
  variantId: number;
  sku: string;
  options: Record<string, string>;
  slug: string;
  image: string | null;
  unitPrice: number;
  qty: number;
  lineTotal: number;
  stockStatus: string;
  availableQty: number;
};

describe(`variants in cart and checkout (${testEngine})`, () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let transportId: number;

  before(async () => {
    t = await startTestApp();
    admin = await adminHeaders(t.app);
    transportId = await makeTransport(t.app.db, { price: 490 });
  });
  after(async () => t.close());

  const variantStock = async (id: number) =>
    (
      await queryRows<{ s: number }>(
        t.app.db,
        sql`select stock_qty as s from product_variant where id = ${id}`,
      )
    )[0].s;
  const productStock = async (id: number) =>
    (await queryRows<{ s: number }>(t.app.db, sql`select stock_qty as s from product where id = ${id}`))[0].s;

  /** A shirt at 20.00 in S (inherits the price, own image) and M (22.50), with the given stock. */
  async function shirt(stock: { s: number; m: number }) {
    const sku = unique('SHIRT');
    const res = await t.app.inject({
      method: 'POST',
      url: '/rest/product/product',
      headers: admin,
      payload: {
        name: unique('Shirt'),
        sku,
        price: 20,
        vatRate: 19,
        weightKg: 0.3,
        images: ['https://img.example.com/shirt.jpg'],
        options: [{ name: 'Size', values: ['S', 'M'] }],
        variants: [
          {
            sku: `${sku}-S`,
            options: { Size: 'S' },
            stockQty: stock.s,
            images: ['https://img.example.com/shirt-s.jpg'],
          },
          { sku: `${sku}-M`, options: { Size: 'M' }, price: 22.5, stockQty: stock.m },
        ],
      },
    });
    assert.equal(res.statusCode, 201, res.body);
    const product = res.json().data;
    const variants = (
      await t.app.inject({
        method: 'GET',
        url: `/rest/product/variant?productId=${product.id}&sort=position`,
        headers: admin,
      })
    ).json().data as { id: number; sku: string }[];
    return { product, s: variants[0], m: variants[1] };
  }

  test('when a product has several variants, then a cart add by productId is 422 VARIANT_REQUIRED and by variantId a line with its own figures', async () => {
    const { product, s } = await shirt({ s: 5, m: 5 });
    const refused = await call(t.app, 'POST', '/rest/cart/items', {}, { productId: product.id, qty: 1 });
    assert.equal(refused.statusCode, 422);
    assert.equal(refused.json().error.code, 'VARIANT_REQUIRED');
    assert.equal(refused.json().error.details[0].field, 'variantId');

    const added = await call(t.app, 'POST', '/rest/cart/items', {}, { variantId: s.id, qty: 2 });
    assert.equal(added.statusCode, 200, added.body);
    const [line] = added.json().data.lines as Line[];
    assert.deepEqual(line, {
      productId: product.id,
      variantId: s.id,
      sku: s.sku,
      name: product.name,
      options: { Size: 'S' },
      slug: product.slug,
      image: 'https://img.example.com/shirt-s.jpg',
      unitPrice: 20,
      qty: 2,
      lineTotal: 40,
      stockStatus: 'in_stock',
      availableQty: 5,
      available: true,
    });
    const mismatch = await call(
      t.app,
      'POST',
      '/rest/cart/items',
      {},
      { productId: product.id + 1, variantId: s.id, qty: 1 },
    );
    assert.equal(mismatch.statusCode, 422);
  });

  test('when a line would pass the stock on hand, then 409 OUT_OF_STOCK naming the variant and availableQty, and the cart is unchanged', async () => {
    const { m } = await shirt({ s: 5, m: 3 });
    const who = await fillCart(t.app, {}, []);
    const first = await call(t.app, 'POST', '/rest/cart/items', who, { variantId: m.id, qty: 2 });
    const cart = first.headers['x-cart-token'] as string;
    const over = await call(t.app, 'POST', '/rest/cart/items', { cart }, { variantId: m.id, qty: 2 });
    assert.equal(over.statusCode, 409);
    assert.equal(over.json().error.code, 'OUT_OF_STOCK');
    assert.deepEqual(
      over.json().error.details.map((d: Record<string, unknown>) => [d.variantId, d.availableQty]),
      [[m.id, 3]],
    );
    const raised = await call(t.app, 'PATCH', `/rest/cart/items/${m.id}`, { cart }, { qty: 4 });
    assert.equal(raised.statusCode, 409);
    assert.equal(raised.json().error.details[0].availableQty, 3);
    const lowered = await call(t.app, 'PATCH', `/rest/cart/items/${m.id}`, { cart }, { qty: 3 });
    assert.equal(lowered.statusCode, 200);
    assert.equal(lowered.json().data.lines[0].qty, 3);
    assert.equal(lowered.json().data.lines[0].stockStatus, 'low_stock');

    const none = await makeProduct(t.app.db, { stockQty: 0 });
    const out = await call(t.app, 'POST', '/rest/cart/items', {}, { productId: none, qty: 1 });
    assert.equal(out.statusCode, 409);
    assert.deepEqual(
      out.json().error.details.map((d: Record<string, unknown>) => [d.variantId, d.availableQty]),
      [[none, 0]],
    );
  });

  test('when variants are quoted and ordered, then totals and the order carry their prices in exact cents, and stock is taken from each variant', async () => {
    const { product, s, m } = await shirt({ s: 10, m: 10 });
    const plain = await makeProduct(t.app.db, { price: 1999, stockQty: 10 });
    const who = await fillCart(t.app, {}, []);
    const first = await call(t.app, 'POST', '/rest/cart/items', who, { variantId: s.id, qty: 2 });
    const cart = first.headers['x-cart-token'] as string;
    await call(t.app, 'POST', '/rest/cart/items', { cart }, { variantId: m.id, qty: 1 });
    await call(t.app, 'POST', '/rest/cart/items', { cart }, { productId: plain, qty: 1 });

    const quoted = await totals(t.app, { cart }, { transportId });
    assert.equal(quoted.statusCode, 200, quoted.body);
    // 2 × 20.00 + 22.50 + 19.99 = 82.49; shipping 4.90.
    assert.equal(quoted.json().subtotal, 82.49);
    assert.equal(quoted.json().total, 87.39);

    const placed = await placeOrder(
      t.app,
      { cart },
      { transportId, email: 'v@example.com', expectedTotal: 87.39 },
    );
    assert.equal(placed.statusCode, 201, placed.body);
    const order = placed.json().data;
    assert.equal(order.total, 87.39);
    assert.deepEqual(
      order.lines.map((l: Record<string, unknown>) => [
        l.productId,
        l.variantId,
        l.sku,
        l.options,
        l.unitPrice,
        l.qty,
        l.lineTotal,
      ]),
      [
        [product.id, s.id, s.sku, { Size: 'S' }, 20, 2, 40],
        [product.id, m.id, m.sku, { Size: 'M' }, 22.5, 1, 22.5],
        [plain, plain, order.lines[2].sku, {}, 19.99, 1, 19.99],
      ],
    );
    assert.deepEqual(
      [await variantStock(s.id), await variantStock(m.id), await productStock(product.id)],
      [8, 9, 17],
    );
    assert.equal(await productStock(plain), 9);

    // Cancelling gives the units back to the same variants.
    const ops = await adminToken(t.app);
    const cancelled = await call(
      t.app,
      'POST',
      `/rest/order/order/${order.id}/transition`,
      { token: ops },
      { to: 'cancelled' },
    );
    assert.equal(cancelled.statusCode, 200, cancelled.body);
    assert.deepEqual(
      [await variantStock(s.id), await variantStock(m.id), await productStock(product.id)],
      [10, 10, 20],
    );
    assert.equal(await productStock(plain), 10);
  });

  test('when stock of a variant runs out after it was put in the cart, then place-order names that variant and takes nothing', async () => {
    const { product, s, m } = await shirt({ s: 4, m: 4 });
    const first = await call(t.app, 'POST', '/rest/cart/items', {}, { variantId: s.id, qty: 3 });
    const cart = first.headers['x-cart-token'] as string;
    await call(t.app, 'POST', '/rest/cart/items', { cart }, { variantId: m.id, qty: 4 });
    await t.app.db.execute(sql`update product_variant set stock_qty = 1 where id = ${s.id}`);
    await t.app.db.execute(sql`update product_variant set stock_qty = 2 where id = ${m.id}`);
    const cartNow = await call(t.app, 'GET', '/rest/cart', { cart });
    assert.deepEqual(
      (cartNow.json().data.lines as Line[]).map((l) => [l.stockStatus, l.availableQty]),
      [
        ['out_of_stock', 1],
        ['out_of_stock', 2],
      ],
    );
    const res = await placeOrder(t.app, { cart }, { transportId, email: 'short@example.com' });
    assert.equal(res.statusCode, 409);
    assert.deepEqual(
      res.json().error.details.map((d: Record<string, unknown>) => [d.variantId, d.availableQty]),
      [
        [s.id, 1],
        [m.id, 2],
      ],
    );
    assert.deepEqual(
      [await variantStock(s.id), await variantStock(m.id), await productStock(product.id)],
      [1, 2, 3],
    );
  });

  test('when a gift product has several variants, then the gift needs a variantId, is free and takes that variant’s stock', async () => {
    const { product, m } = await shirt({ s: 5, m: 5 });
    const giftId = await makeGift(t.app.db, { productIds: [product.id], maxQty: 1 });
    const bought = await makeProduct(t.app.db, { price: 5000, stockQty: 5 });
    const who = await fillCart(t.app, {}, [[bought, 1]]);
    const undecided = await totals(t.app, who, {
      transportId,
      selectedGifts: [{ giftId, productId: product.id, qty: 1 }],
    });
    assert.deepEqual(undecided.json().giftErrors, [
      { giftId, productId: product.id, reason: 'GIFT_VARIANT_REQUIRED' },
    ]);
    const body = { transportId, selectedGifts: [{ giftId, productId: product.id, variantId: m.id, qty: 1 }] };
    const chosen = await totals(t.app, who, body);
    assert.equal(chosen.json().giftDiscount, 22.5);
    assert.equal(chosen.json().subtotal, 72.5);
    assert.equal(chosen.json().total, 54.9);
    const placed = await placeOrder(t.app, who, { ...body, email: 'gift@example.com' });
    assert.equal(placed.statusCode, 201, placed.body);
    const giftLine = placed.json().data.lines.find((l: Record<string, unknown>) => l.giftId === giftId);
    assert.equal(giftLine.variantId, m.id);
    assert.equal(await variantStock(m.id), 4);
  });

  test('when a guest registers with X-Cart-Token, then the guest cart becomes the new customer’s', async () => {
    const { s } = await shirt({ s: 5, m: 5 });
    const first = await call(t.app, 'POST', '/rest/cart/items', {}, { variantId: s.id, qty: 2 });
    const cart = first.headers['x-cart-token'] as string;
    const registered = await t.app.inject({
      method: 'POST',
      url: '/rest/auth/customer/register',
      headers: { 'x-cart-token': cart },
      payload: {
        email: `${unique('reg')}@example.com`,
        password: 'a-long-password-1',
        firstName: 'A',
        lastName: 'B',
      },
    });
    assert.equal(registered.statusCode, 201, registered.body);
    const mine = await call(t.app, 'GET', '/rest/cart', { token: registered.json().access_token });
    assert.deepEqual(
      (mine.json().data.lines as Line[]).map((l) => [l.variantId, l.qty]),
      [[s.id, 2]],
    );
    const old = await call(t.app, 'GET', '/rest/cart', { cart });
    assert.deepEqual(old.json().data.lines, []);
  });

  test('when 20 buyers race for the last unit of one variant, then one order is made and the sibling variant keeps its stock', async () => {
    const { product, s, m } = await shirt({ s: 1, m: 50 });
    const buyers: Who[] = [];
    for (let i = 0; i < 20; i++) {
      const added = await call(t.app, 'POST', '/rest/cart/items', {}, { variantId: s.id, qty: 1 });
      assert.equal(added.statusCode, 200, added.body);
      buyers.push({ cart: added.headers['x-cart-token'] as string });
    }
    const answers = await Promise.all(
      buyers.map((who) => placeOrder(t.app, who, { transportId, email: 'race@example.com' })),
    );
    const statuses = answers.map((a) => a.statusCode).sort();
    assert.deepEqual(
      statuses,
      [201, ...Array(19).fill(409)],
      answers.map((a) => a.body.slice(0, 120)).join('\n'),
    );
    for (const a of answers)
      if (a.statusCode === 409) assert.equal(a.json().error.details[0].variantId, s.id);
    assert.deepEqual(
      [await variantStock(s.id), await variantStock(m.id), await productStock(product.id)],
      [0, 50, 50],
    );
    const orders = await queryRows<{ n: number }>(
      t.app.db,
      sql`select count(*)::int as n from sales_order_line where variant_id = ${s.id}`,
    );
    assert.equal(orders[0].n, 1);
  });
});
