import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/db/client.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import {
  adminToken,
  call,
  fillCart,
  makeCoupon,
  makeCustomer,
  makeGift,
  makeProduct,
  makeTransport,
  placeOrder,
  totals,
} from './fixtures.ts';

interface Order {
  id: number;
  number: string;
  status: string;
  total: number;
  email: string;
  totals: Record<string, number>;
  lines: {
    productId: number;
    qty: number;
    unitPrice: number;
    lineTotal: number;
    vatRate: number;
    giftId: number | null;
  }[];
  address: Record<string, string | null>;
  vatBreakdown: { rate: number; net: number; vat: number; gross: number }[];
  createdAt: string;
}

describe('POST /rest/checkout/place-order', () => {
  let t: TestApp;
  let transportId: number;
  const count = async (query: ReturnType<typeof sql>) =>
    (await queryRows<{ n: number }>(t.app.db, query))[0].n;
  const stock = async (id: number) =>
    (await queryRows<{ s: number }>(t.app.db, sql`select stock_qty as s from product where id = ${id}`))[0].s;
  const orders = () => count(sql`select count(*)::int as n from sales_order`);
  const placedEvents = () =>
    count(sql`select count(*)::int as n from outbox_event where type = 'order.placed'`);

  before(async () => {
    t = await startTestApp();
    transportId = await makeTransport(t.app.db, { price: 500 });
  });
  after(async () => t.close());

  test('when a guest places a cart, then 201 with the order, stock is taken, the cart is empty and order.placed is recorded', async () => {
    const [a, b] = [
      await makeProduct(t.app.db, { price: 1999, stockQty: 10, vatRate: 19 }),
      await makeProduct(t.app.db, { price: 550, stockQty: 5, vatRate: 7 }),
    ];
    const who = await fillCart(t.app, {}, [
      [a, 2],
      [b, 3],
    ]);
    const quote = (await totals(t.app, who, { transportId })).json() as { total: number };
    const eventsBefore = await placedEvents();
    const res = await placeOrder(t.app, who, {
      transportId,
      email: 'guest@example.com',
      expectedTotal: quote.total,
    });
    assert.equal(res.statusCode, 201, res.body);
    const order = res.json().data as Order;
    assert.match(order.number, /^SO-\d{6,}$/);
    assert.equal(order.status, 'pending');
    assert.equal(order.total, quote.total);
    assert.equal(order.total, 39.98 + 16.5 + 5);
    assert.equal(order.email, 'guest@example.com');
    assert.equal(order.address.city, 'Berlin');
    assert.deepEqual(
      order.lines.map((l) => [l.productId, l.qty, l.unitPrice, l.lineTotal]),
      [
        [a, 2, 19.99, 39.98],
        [b, 3, 5.5, 16.5],
      ],
    );
    let gross = 0;
    for (const v of order.vatBreakdown) {
      assert.equal(Math.round(v.net * 100) + Math.round(v.vat * 100), Math.round(v.gross * 100));
      gross += Math.round(v.gross * 100);
    }
    assert.equal(gross, Math.round(order.total * 100));
    assert.ok(!Number.isNaN(Date.parse(order.createdAt)));
    assert.equal(await stock(a), 8);
    assert.equal(await stock(b), 2);
    assert.equal((await call(t.app, 'GET', '/rest/cart', who)).json().data.itemCount, 0);
    assert.equal(await placedEvents(), eventsBefore + 1);
    const payload = await queryRows<{ payload: Record<string, unknown> }>(
      t.app.db,
      sql`select payload from outbox_event where type = 'order.placed' order by id desc limit 1`,
    );
    const [row] = await queryRows<Record<string, unknown>>(
      t.app.db,
      sql`select number, customer_id as "customerId", total, currency from sales_order where id = ${order.id}`,
    );
    assert.deepEqual(payload[0].payload, { orderId: order.id, ...row });
  });

  test('when no transport is chosen, then 422 TRANSPORT_INVALID and nothing is written', async () => {
    const p = await makeProduct(t.app.db, { stockQty: 3 });
    const who = await fillCart(t.app, {}, [[p, 1]]);
    const before = await orders();
    const res = await placeOrder(t.app, who, { email: 'x@example.com' });
    assert.equal(res.statusCode, 422);
    assert.equal(res.json().error.code, 'TRANSPORT_INVALID');
    assert.equal(await orders(), before);
    assert.equal(await stock(p), 3);
  });

  test('when the cart is empty or there is none, then 422 CART_EMPTY', async () => {
    const ada = await makeCustomer(t.app);
    for (const who of [{}, { cart: 'E'.repeat(43) }, { token: ada.token }]) {
      const res = await placeOrder(t.app, who, { transportId, email: 'x@example.com' });
      assert.equal(res.statusCode, 422, JSON.stringify(who));
      assert.equal(res.json().error.code, 'CART_EMPTY');
    }
  });

  test('when a guest sends no email, then 400 naming email; a customer needs none', async () => {
    const p = await makeProduct(t.app.db);
    const who = await fillCart(t.app, {}, [[p, 1]]);
    const res = await placeOrder(t.app, who, { transportId });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().error.details[0].field, 'email');
    const ada = await makeCustomer(t.app);
    await fillCart(t.app, { token: ada.token }, [[p, 1]]);
    const mine = await placeOrder(t.app, { token: ada.token }, { transportId });
    assert.equal(mine.statusCode, 201, mine.body);
    assert.equal((mine.json().data as Order).email, ada.email);
  });

  test('when the body carries a price, a total or a discount, then 400 and nothing is written', async () => {
    const p = await makeProduct(t.app.db);
    const who = await fillCart(t.app, {}, [[p, 1]]);
    for (const extra of [{ price: 0.01 }, { total: 0 }, { couponDiscount: 10 }, { unitPrice: 1 }]) {
      const res = await placeOrder(t.app, who, { transportId, email: 'x@example.com', ...extra });
      assert.equal(res.statusCode, 400, JSON.stringify(extra));
    }
  });

  test('when expectedTotal differs from the total, then 409 TOTAL_CHANGED and nothing is written', async () => {
    const p = await makeProduct(t.app.db, { price: 1000, stockQty: 4 });
    const who = await fillCart(t.app, {}, [[p, 2]]);
    const before = await orders();
    const events = await placedEvents();
    const res = await placeOrder(t.app, who, { transportId, email: 'x@example.com', expectedTotal: 24.99 });
    assert.equal(res.statusCode, 409);
    assert.equal(res.json().error.code, 'TOTAL_CHANGED');
    assert.equal(await orders(), before);
    assert.equal(await placedEvents(), events, 'no order.placed for a refused order');
    assert.equal(await stock(p), 4);
    assert.equal((await call(t.app, 'GET', '/rest/cart', who)).json().data.itemCount, 2);
    const ok = await placeOrder(t.app, who, { transportId, email: 'x@example.com', expectedTotal: 25 });
    assert.equal(ok.statusCode, 201);
  });

  test('when a cart is too large to price or to store, then totals and place-order answer 422 and nothing is written', async () => {
    // 9,999,999 kg × 100 at a 21,474,836.47-per-kg surcharge is ~2 × 10^18 cents: beyond exact numbers.
    const heavy = await makeProduct(t.app.db, { price: 100, weightKg: 9_999_999, stockQty: 999 });
    const costly = await makeTransport(t.app.db, { price: 0, overweightPricePerKg: 2_147_483_647 });
    const who = await fillCart(t.app, {}, [[heavy, 100]]);
    const before = await orders();
    const quote = await totals(t.app, who, { transportId: costly });
    assert.equal(quote.statusCode, 422, quote.body);
    assert.equal(quote.json().error.code, 'UNPROCESSABLE');
    assert.equal(quote.json().error.details[0].field, 'cart');
    const refused = await placeOrder(t.app, who, { transportId: costly, email: 'x@example.com' });
    assert.equal(refused.statusCode, 422, refused.body);
    assert.equal(refused.json().error.code, 'UNPROCESSABLE');

    // Exact, but more than the order's integer-cent columns hold (21,474,836.47): quoted, not orderable.
    const pricey = await makeProduct(t.app.db, { price: 2_000_000_000, stockQty: 2 });
    const big = await fillCart(t.app, {}, [[pricey, 2]]);
    const shown = await totals(t.app, big, { transportId });
    assert.equal(shown.statusCode, 200, shown.body);
    assert.equal(shown.json().total, 40_000_005);
    const tooBig = await placeOrder(t.app, big, { transportId, email: 'x@example.com' });
    assert.equal(tooBig.statusCode, 422, tooBig.body);
    assert.equal(await orders(), before);
    assert.equal(await stock(heavy), 999);
    assert.equal(await stock(pricey), 2);
  });

  test('when stock is short, then 409 OUT_OF_STOCK naming every short line, no stock is taken from any line and no event is recorded', async () => {
    const plenty = await makeProduct(t.app.db, { stockQty: 50 });
    const scarce = await makeProduct(t.app.db, { stockQty: 2 });
    const gone = await makeProduct(t.app.db, { stockQty: 3 });
    const who = await fillCart(t.app, {}, [
      [plenty, 5],
      [scarce, 2],
      [gone, 3],
    ]);
    // Sold elsewhere after they were put in the cart.
    await t.app.db.execute(sql`update product set stock_qty = 1 where id = ${scarce}`);
    await t.app.db.execute(sql`update product set stock_qty = 0 where id = ${gone}`);
    const events = await placedEvents();
    const res = await placeOrder(t.app, who, { transportId, email: 'x@example.com' });
    assert.equal(res.statusCode, 409);
    const error = res.json().error;
    assert.equal(error.code, 'OUT_OF_STOCK');
    assert.deepEqual(
      error.details.map((d: { variantId: number; availableQty: number }) => [d.variantId, d.availableQty]),
      [
        [scarce, 1],
        [gone, 0],
      ],
    );
    assert.equal(await stock(plenty), 50);
    assert.equal(await stock(scarce), 1);
    assert.equal(await placedEvents(), events);
  });

  test('when the coupon, a gift or a product no longer qualifies, then 422 COUPON_INVALID / GIFT_INVALID / PRODUCT_UNAVAILABLE', async () => {
    const p = await makeProduct(t.app.db, { price: 1000 });
    const c = await makeCoupon(t.app.db);
    const who = await fillCart(t.app, {}, [[p, 1]]);
    await call(t.app, 'POST', '/rest/cart/coupon', who, { code: c.code });
    await t.app.db.execute(sql`update coupon set ends_at = now() - interval '1 second' where id = ${c.id}`);
    const coupon = await placeOrder(t.app, who, { transportId, email: 'x@example.com' });
    assert.equal(coupon.json().error.code, 'COUPON_INVALID');
    await call(t.app, 'DELETE', '/rest/cart/coupon', who);

    const g = await makeProduct(t.app.db);
    const giftId = await makeGift(t.app.db, { productIds: [g], minSubtotal: 99_900 });
    const gift = await placeOrder(t.app, who, {
      transportId,
      email: 'x@example.com',
      selectedGifts: [{ giftId, productId: g, qty: 1 }],
    });
    assert.equal(gift.statusCode, 422);
    assert.equal(gift.json().error.code, 'GIFT_INVALID');

    await t.app.db.execute(sql`update product set active = false where id = ${p}`);
    const gone = await placeOrder(t.app, who, { transportId, email: 'x@example.com' });
    assert.equal(gone.statusCode, 422);
    assert.equal(gone.json().error.code, 'PRODUCT_UNAVAILABLE');
  });

  test('when a valid gift and a coupon are used, then the gift line is free, its stock is taken and the coupon use is counted', async () => {
    const p = await makeProduct(t.app.db, { price: 4000 });
    const g = await makeProduct(t.app.db, { price: 1200, stockQty: 3 });
    const giftId = await makeGift(t.app.db, { productIds: [g] });
    const c = await makeCoupon(t.app.db, { type: 'fixed', value: 500, usageLimit: 10 });
    const who = await fillCart(t.app, {}, [[p, 1]]);
    await call(t.app, 'POST', '/rest/cart/coupon', who, { code: c.code });
    const res = await placeOrder(t.app, who, {
      transportId,
      email: 'gift@example.com',
      selectedGifts: [{ giftId, productId: g, qty: 1 }],
    });
    assert.equal(res.statusCode, 201, res.body);
    const order = res.json().data as Order;
    assert.equal(order.total, 40 - 5 + 5);
    assert.equal(order.totals.giftDiscount, 12);
    assert.equal(order.lines.find((l) => l.giftId === giftId)?.productId, g);
    assert.equal(await stock(g), 2);
    assert.equal(await count(sql`select used_count as n from coupon where id = ${c.id}`), 1);
    assert.equal(
      await count(sql`select count(*)::int as n from coupon_redemption where coupon_id = ${c.id}`),
      1,
    );
  });

  test('when a customer reached a per-customer coupon limit, then the next order is 422 COUPON_INVALID', async () => {
    const p = await makeProduct(t.app.db);
    const c = await makeCoupon(t.app.db, { perCustomerLimit: 1 });
    const ada = await makeCustomer(t.app);
    const me = { token: ada.token };
    await fillCart(t.app, me, [[p, 1]]);
    await call(t.app, 'POST', '/rest/cart/coupon', me, { code: c.code });
    assert.equal((await placeOrder(t.app, me, { transportId })).statusCode, 201);
    await fillCart(t.app, me, [[p, 1]]);
    const again = await call(t.app, 'POST', '/rest/cart/coupon', me, { code: c.code });
    assert.equal(again.statusCode, 422, 'the cart already refuses it');
    await t.app.db.execute(sql`update cart set coupon_code = ${c.code} where customer_id = ${ada.id}`);
    const res = await placeOrder(t.app, me, { transportId });
    assert.equal(res.statusCode, 422);
    assert.equal(res.json().error.code, 'COUPON_INVALID');
  });

  test('when a customer redeems points, then the balance drops and a ledger row "redeemed" explains it', async () => {
    const p = await makeProduct(t.app.db, { price: 3000 });
    const ada = await makeCustomer(t.app, 250);
    await fillCart(t.app, { token: ada.token }, [[p, 1]]);
    const res = await placeOrder(t.app, { token: ada.token }, { transportId, redeemPoints: true });
    assert.equal(res.statusCode, 201, res.body);
    const order = res.json().data as Order;
    assert.equal(order.totals.pointsSpend, 200);
    assert.equal(order.total, 30 + 5 - 10);
    assert.equal(await count(sql`select loyalty_points as n from customer where id = ${ada.id}`), 50);
    const ledger = await queryRows<{ delta: number; reason: string; order_id: number }>(
      t.app.db,
      sql`select delta, reason, order_id from loyalty_ledger where customer_id = ${ada.id}`,
    );
    assert.deepEqual(ledger, [{ delta: -200, reason: 'redeemed', order_id: order.id }]);
  });

  test('when guest checkout is turned off, then a guest gets 401', async () => {
    const admin = await adminToken(t.app, [1]);
    await call(
      t.app,
      'PUT',
      '/rest/system/setting/feature_guest_checkout',
      { token: admin },
      { value: false },
    );
    try {
      const p = await makeProduct(t.app.db);
      const who = await fillCart(t.app, {}, [[p, 1]]);
      const res = await placeOrder(t.app, who, { transportId, email: 'x@example.com' });
      assert.equal(res.statusCode, 401);
    } finally {
      await call(t.app, 'DELETE', '/rest/system/setting/feature_guest_checkout', { token: admin });
    }
  });

  test('when an admin token is sent, then 403', async () => {
    const res = await placeOrder(t.app, { token: await adminToken(t.app, [1]) }, { transportId });
    assert.equal(res.statusCode, 403);
  });
});
