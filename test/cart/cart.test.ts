import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import { carts } from '../../src/modules/cart/cart.tables.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { adminToken, call, fillCart, makeCoupon, makeCustomer, makeProduct } from '../checkout/fixtures.ts';

interface CartBody {
  success: true;
  data: {
    token?: string;
    lines: {
      productId: number;
      sku: string;
      slug: string;
      name: string;
      unitPrice: number;
      qty: number;
      lineTotal: number;
      available: boolean;
    }[];
    couponCode: string | null;
    itemCount: number;
    goods: number;
  };
}

describe('cart', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(async () => t.close());

  test('when a guest writes first, then a 43-char token comes back in the header and data.token, and only its hash is stored', async () => {
    const p = await makeProduct(t.app.db, { price: 1999 });
    const res = await call(t.app, 'POST', '/rest/cart/items', {}, { productId: p, qty: 2 });
    assert.equal(res.statusCode, 200);
    const token = res.headers['x-cart-token'];
    assert.equal(typeof token, 'string');
    assert.match(token as string, /^[A-Za-z0-9_-]{43}$/);
    const body = res.json() as CartBody;
    assert.equal(body.data.token, token);
    assert.deepEqual(body.data.lines, [
      {
        productId: p,
        variantId: p,
        sku: body.data.lines[0].sku,
        name: body.data.lines[0].name,
        options: {},
        slug: body.data.lines[0].slug,
        image: null,
        unitPrice: 19.99,
        qty: 2,
        lineTotal: 39.98,
        stockStatus: 'in_stock',
        availableQty: 100,
        available: true,
      },
    ]);
    assert.equal(body.data.goods, 39.98);
    assert.equal(body.data.itemCount, 2);
    const hash = createHash('sha256')
      .update(token as string)
      .digest('hex');
    const rows = await t.app.db.select().from(carts).where(eq(carts.tokenHash, hash));
    assert.equal(rows.length, 1);
    const raw = await t.app.db.execute(
      sql`select count(*)::int as n from cart where token_hash = ${token as string}`,
    );
    assert.equal((raw as unknown as { rows: { n: number }[] }).rows[0].n, 0);
  });

  test('when the guest sends the token again, then the same cart answers and lines add up', async () => {
    const p = await makeProduct(t.app.db);
    const who = await fillCart(t.app, {}, [[p, 1]]);
    const again = await call(t.app, 'POST', '/rest/cart/items', who, { productId: p, qty: 3 });
    assert.equal(again.headers['x-cart-token'], who.cart);
    assert.equal((again.json() as CartBody).data.lines[0].qty, 4);
    const read = await call(t.app, 'GET', '/rest/cart', who);
    assert.equal((read.json() as CartBody).data.itemCount, 4);
  });

  test('when GET carries an unknown token, then an empty cart answers and nothing is created', async () => {
    const before = await t.app.db.select({ n: sql<number>`count(*)::int` }).from(carts);
    const res = await call(t.app, 'GET', '/rest/cart', { cart: 'A'.repeat(43) });
    assert.equal(res.statusCode, 200);
    assert.deepEqual((res.json() as CartBody).data, { lines: [], couponCode: null, itemCount: 0, goods: 0 });
    assert.equal(res.headers['x-cart-token'], undefined);
    const afterCount = await t.app.db.select({ n: sql<number>`count(*)::int` }).from(carts);
    assert.equal(afterCount[0].n, before[0].n);
  });

  test("when a write carries an unknown or made-up token, then a NEW cart with a new token is made, never another's", async () => {
    const p = await makeProduct(t.app.db);
    const other = await fillCart(t.app, {}, [[p, 5]]);
    for (const sent of ['B'.repeat(43), 'short', `${other.cart}x`]) {
      const res = await call(t.app, 'POST', '/rest/cart/items', { cart: sent }, { productId: p, qty: 1 });
      assert.equal(res.statusCode, 200);
      const token = res.headers['x-cart-token'];
      assert.notEqual(token, sent);
      assert.notEqual(token, other.cart);
      assert.equal((res.json() as CartBody).data.lines[0].qty, 1);
    }
  });

  test('when a quantity is changed, set to 0 or deleted, then the line follows; an absent line is 404 on PATCH', async () => {
    const [a, b] = [await makeProduct(t.app.db), await makeProduct(t.app.db)];
    const who = await fillCart(t.app, {}, [
      [a, 1],
      [b, 1],
    ]);
    const patched = await call(t.app, 'PATCH', `/rest/cart/items/${a}`, who, { qty: 7 });
    assert.equal((patched.json() as CartBody).data.lines.find((l) => l.productId === a)?.qty, 7);
    const zero = await call(t.app, 'PATCH', `/rest/cart/items/${a}`, who, { qty: 0 });
    assert.deepEqual(
      (zero.json() as CartBody).data.lines.map((l) => l.productId),
      [b],
    );
    const removed = await call(t.app, 'DELETE', `/rest/cart/items/${b}`, who);
    assert.equal((removed.json() as CartBody).data.lines.length, 0);
    const absent = await call(t.app, 'PATCH', `/rest/cart/items/${a}`, who, { qty: 2 });
    assert.equal(absent.statusCode, 404);
  });

  test('when quantities are out of 1–999, then 400; when a line would pass cart_max_line_qty, then 422', async () => {
    const p = await makeProduct(t.app.db);
    for (const qty of [0, -1, 1000, 1.5]) {
      const res = await call(t.app, 'POST', '/rest/cart/items', {}, { productId: p, qty });
      assert.equal(res.statusCode, 400, `qty ${qty}`);
    }
    const who = await fillCart(t.app, {}, [[p, 100]]);
    const over = await call(t.app, 'POST', '/rest/cart/items', who, { productId: p, qty: 1 });
    assert.equal(over.statusCode, 422);
    assert.equal(over.json().error.code, 'LIMIT_REACHED');
    const extra = await call(t.app, 'POST', '/rest/cart/items', who, { productId: p, qty: 1, price: 1 });
    assert.equal(extra.statusCode, 400);
  });

  test('when a product is inactive or unknown, then 422 PRODUCT_UNAVAILABLE', async () => {
    const off = await makeProduct(t.app.db, { active: false });
    for (const productId of [off, 2_000_000_000]) {
      const res = await call(t.app, 'POST', '/rest/cart/items', {}, { productId, qty: 1 });
      assert.equal(res.statusCode, 422);
      assert.equal(res.json().error.code, 'PRODUCT_UNAVAILABLE');
    }
  });

  test('when a cart has 200 lines, then a 201st is refused with 422 and more units of a line still fit', async () => {
    const first = await makeProduct(t.app.db);
    const who = await fillCart(t.app, {}, [[first, 1]]);
    const cart = (
      await t.app.db
        .select()
        .from(carts)
        .where(eq(carts.tokenHash, createHash('sha256').update(who.cart!).digest('hex')))
    )[0];
    const ids: number[] = [];
    for (let i = 0; i < 199; i++) ids.push(await makeProduct(t.app.db));
    await t.app.db.execute(
      sql`insert into cart_line (cart_id, product_id, variant_id, qty)
          select ${cart.id}, v.product_id, v.id, 1 from product_variant v where v.product_id = any(${sql.param(ids)}::int[])`,
    );
    const one = await makeProduct(t.app.db);
    const res = await call(t.app, 'POST', '/rest/cart/items', who, { productId: one, qty: 1 });
    assert.equal(res.statusCode, 422);
    const more = await call(t.app, 'POST', '/rest/cart/items', who, { productId: first, qty: 1 });
    assert.equal(more.statusCode, 200);
  });

  test('when a customer writes, then the cart is theirs by owner: no token, and another customer sees none of it', async () => {
    const p = await makeProduct(t.app.db);
    const ada = await makeCustomer(t.app);
    const bob = await makeCustomer(t.app);
    const res = await call(t.app, 'POST', '/rest/cart/items', { token: ada.token }, { productId: p, qty: 2 });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['x-cart-token'], undefined);
    assert.equal((res.json() as CartBody).data.token, undefined);
    const again = await call(t.app, 'GET', '/rest/cart', { token: ada.token });
    assert.equal((again.json() as CartBody).data.itemCount, 2);
    const other = await call(t.app, 'GET', '/rest/cart', { token: bob.token });
    assert.equal((other.json() as CartBody).data.itemCount, 0);
  });

  test('when an admin token is sent, then the cart answers 403', async () => {
    const admin = await adminToken(t.app, [1]);
    const res = await call(t.app, 'GET', '/rest/cart', { token: admin });
    assert.equal(res.statusCode, 403);
    assert.equal(res.json().error.code, 'FORBIDDEN');
  });

  test('when a product is deactivated after it was added, then the line shows available: false and is left out of goods', async () => {
    const [a, b] = [await makeProduct(t.app.db, { price: 500 }), await makeProduct(t.app.db, { price: 700 })];
    const who = await fillCart(t.app, {}, [
      [a, 1],
      [b, 1],
    ]);
    await t.app.db.execute(sql`update product set active = false where id = ${b}`);
    const res = await call(t.app, 'GET', '/rest/cart', who);
    const data = (res.json() as CartBody).data;
    assert.equal(data.goods, 5);
    assert.equal(data.lines.find((l) => l.productId === b)?.available, false);
  });

  test('when a valid coupon is applied, then its code shows; unknown, inactive, expired or used-up codes are 422 COUPON_INVALID', async () => {
    const p = await makeProduct(t.app.db);
    const who = await fillCart(t.app, {}, [[p, 1]]);
    const good = await makeCoupon(t.app.db);
    const ok = await call(t.app, 'POST', '/rest/cart/coupon', who, { code: good.code.toLowerCase() });
    assert.equal(ok.statusCode, 200);
    assert.equal((ok.json() as CartBody).data.couponCode, good.code);
    const bad = [
      { code: 'NOPE-NOT-A-CODE' },
      await makeCoupon(t.app.db, { active: false }),
      await makeCoupon(t.app.db, { endsAt: new Date(Date.now() - 1000) }),
      await makeCoupon(t.app.db, { startsAt: new Date(Date.now() + 86_400_000) }),
      await makeCoupon(t.app.db, { usageLimit: 0 }),
    ];
    for (const c of bad) {
      const res = await call(t.app, 'POST', '/rest/cart/coupon', who, { code: c.code });
      assert.equal(res.statusCode, 422, c.code);
      assert.equal(res.json().error.code, 'COUPON_INVALID');
    }
    const removed = await call(t.app, 'DELETE', '/rest/cart/coupon', who);
    assert.equal((removed.json() as CartBody).data.couponCode, null);
  });
});

describe('cart: coupon attempts are rate limited per IP', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ config: { rateLimit: { enabled: true, couponPerIp: 3 } } });
  });
  after(async () => t.close());

  test('when an IP tries more codes than allowed, then 429 RATE_LIMITED with Retry-After', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await call(t.app, 'POST', '/rest/cart/coupon', {}, { code: `GUESS${i}` });
      statuses.push(res.statusCode);
      if (res.statusCode === 429) {
        assert.equal(res.json().error.code, 'RATE_LIMITED');
        assert.ok(res.headers['retry-after']);
      }
    }
    assert.deepEqual(statuses, [422, 422, 422, 429]);
  });
});
