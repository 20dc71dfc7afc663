import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/db/client.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import {
  ADDRESS,
  adminToken,
  call,
  fillCart,
  makeCoupon,
  makeCustomer,
  makeProduct,
  makeTransport,
  placeOrder,
  totals,
} from './fixtures.ts';

// Cart promotions through HTTP (docs/promotions.md): written by Marketing, applied by the quote
// before the coupon and the free-shipping threshold, kept by the order, counted race-safe.

type Quote = Record<string, number> & {
  promotions: { id: number; name: string; amount: number }[];
  couponError?: string;
};

let t: TestApp;
let marketing: string;

before(async () => {
  t = await startTestApp();
  marketing = await adminToken(t.app, [8]);
});
after(() => t.close());

async function createPromotion(body: Record<string, unknown>): Promise<number> {
  const res = await call(
    t.app,
    'POST',
    '/rest/checkout/promotion',
    { token: marketing },
    { kind: 'cart', ...body },
  );
  assert.equal(res.statusCode, 201, res.body);
  return (res.json() as { data: { id: number } }).data.id;
}

/** Every promotion of earlier tests paused, so each test sees only its own. */
async function pauseAll(): Promise<void> {
  await t.app.db.execute(sql`update promotion set active = false`);
}

async function quote(who: Parameters<typeof totals>[1], body: Record<string, unknown> = {}): Promise<Quote> {
  const res = await totals(t.app, who, body);
  assert.equal(res.statusCode, 200, res.body);
  return res.json() as Quote;
}

describe('cart promotions in the quote', () => {
  test('when a percent promotion and a coupon meet a free-shipping threshold, then the promotion comes first, the coupon second and the threshold sees both', async () => {
    await pauseAll();
    const product = await makeProduct(t.app.db, { price: 5000 });
    const id = await createPromotion({
      name: 'Ten off from 60',
      conditions: { minSubtotal: 60 },
      action: { type: 'percent', value: 10 },
    });
    const transportId = await makeTransport(t.app.db, { price: 500, freeShippingThreshold: 8500 });
    const coupon = await makeCoupon(t.app.db, { type: 'percent', value: 1000 });
    const who = await fillCart(t.app, {}, [[product, 2]]);
    await call(t.app, 'POST', '/rest/cart/coupon', who, { code: coupon.code });
    const q = await quote(who, { transportId });
    assert.equal(q.promotionDiscount, 10);
    assert.deepEqual(q.promotions, [{ id, name: 'Ten off from 60', amount: 10 }]);
    assert.equal(q.couponDiscount, 9); // 10 % of 90.00
    assert.equal(q.shippingCost, 5); // 81.00 is below the 85.00 threshold
    assert.equal(q.total, 86);
  });

  test('when three units meet buy 2 get 1 free, then the cheapest unit is free', async () => {
    await pauseAll();
    const dear = await makeProduct(t.app.db, { price: 1000 });
    const cheap = await makeProduct(t.app.db, { price: 399 });
    await createPromotion({
      name: '3 for 2',
      action: { type: 'buy_x_get_y', buyQty: 2, getQty: 1, percent: 100 },
    });
    const who = await fillCart(t.app, {}, [
      [dear, 2],
      [cheap, 1],
    ]);
    const q = await quote(who);
    assert.equal(q.promotionDiscount, 3.99);
    assert.equal(q.total, 20);
  });

  test('when a cart crosses a tier, then the higher tier applies, rounded half-up to the cent', async () => {
    await pauseAll();
    const product = await makeProduct(t.app.db, { price: 3335 });
    await createPromotion({
      name: 'Tiers',
      action: {
        type: 'tiered',
        tiers: [
          { minSubtotal: 50, percent: 10 },
          { minSubtotal: 100, percent: 15 },
        ],
      },
    });
    const one = await fillCart(t.app, {}, [[product, 1]]);
    assert.equal((await quote(one)).promotionDiscount, 0);
    const two = await fillCart(t.app, {}, [[product, 2]]);
    assert.equal((await quote(two)).promotionDiscount, 6.67); // 10 % of 66.70
    const three = await fillCart(t.app, {}, [[product, 3]]);
    assert.equal((await quote(three)).promotionDiscount, 15.01); // 15 % of 100.05 = 15.0075
  });

  test('when an exclusive promotion of higher priority applies, then one of lower priority does not', async () => {
    await pauseAll();
    const product = await makeProduct(t.app.db, { price: 2000 });
    const high = await createPromotion({
      name: 'High',
      priority: 5,
      exclusive: true,
      action: { type: 'percent', value: 10 },
    });
    await createPromotion({ name: 'Low', priority: 1, action: { type: 'fixed', value: 5 } });
    const q = await quote(await fillCart(t.app, {}, [[product, 1]]));
    assert.deepEqual(
      q.promotions.map((p) => [p.id, p.amount]),
      [[high, 2]],
    );
  });

  test('when a promotion does not combine with coupons, then the coupon is left out of the quote and place-order refuses it', async () => {
    await pauseAll();
    const product = await makeProduct(t.app.db, { price: 2000 });
    await createPromotion({
      name: 'Alone',
      combinesWithCoupons: false,
      action: { type: 'percent', value: 20 },
    });
    const coupon = await makeCoupon(t.app.db);
    const who = await fillCart(t.app, {}, [[product, 1]]);
    await call(t.app, 'POST', '/rest/cart/coupon', who, { code: coupon.code });
    const q = await quote(who);
    assert.equal(q.couponError, 'COUPON_NOT_COMBINABLE');
    assert.equal(q.couponDiscount, 0);
    assert.equal(q.total, 16);
    const transportId = await makeTransport(t.app.db);
    const res = await placeOrder(t.app, who, {
      transportId,
      email: 'a@example.com',
      payWay: 'bank_transfer',
    });
    assert.equal(res.statusCode, 422, res.body);
    assert.equal((res.json() as { error: { code: string } }).error.code, 'COUPON_INVALID');
  });

  test('when a promotion is for customers only, then a guest does not get it and a customer does', async () => {
    await pauseAll();
    const product = await makeProduct(t.app.db, { price: 1000 });
    await createPromotion({
      name: 'Members',
      conditions: { customersOnly: true },
      action: { type: 'fixed', value: 1.5 },
    });
    assert.equal((await quote(await fillCart(t.app, {}, [[product, 1]]))).promotionDiscount, 0);
    const customer = await makeCustomer(t.app);
    assert.equal(
      (await quote(await fillCart(t.app, { token: customer.token }, [[product, 1]]))).promotionDiscount,
      1.5,
    );
  });

  test('when a fixed promotion is larger than its product lines, then it is capped at them', async () => {
    await pauseAll();
    const target = await makeProduct(t.app.db, { price: 1000 });
    const other = await makeProduct(t.app.db, { price: 3000 });
    await createPromotion({
      name: 'Big',
      conditions: { productIds: [target] },
      action: { type: 'fixed', value: 50 },
    });
    const q = await quote(
      await fillCart(t.app, {}, [
        [target, 1],
        [other, 1],
      ]),
    );
    assert.equal(q.promotionDiscount, 10);
    assert.equal(q.total, 30);
  });

  test('when an order uses a promotion, then the order keeps it, its use is counted and a paused promotion no longer applies', async () => {
    await pauseAll();
    const product = await makeProduct(t.app.db, { price: 1234 });
    const id = await createPromotion({ name: 'Kept', action: { type: 'percent', value: 12.5 } });
    const transportId = await makeTransport(t.app.db, { price: 0 });
    const who = await fillCart(t.app, {}, [[product, 3]]);
    const res = await placeOrder(t.app, who, {
      transportId,
      email: 'k@example.com',
      payWay: 'bank_transfer',
      expectedTotal: 32.39,
    });
    assert.equal(res.statusCode, 201, res.body);
    const order = (res.json() as { data: { id: number; totals: Quote } }).data;
    // 12.5 % of 37.02 = 4.6275 → 4.63
    assert.deepEqual(order.totals.promotions, [{ id, name: 'Kept', amount: 4.63 }]);
    const seen = await call(t.app, 'GET', `/rest/checkout/promotion/${id}`, { token: marketing });
    const data = (seen.json() as { data: Record<string, unknown> }).data;
    assert.equal(data.usedCount, 1);
    assert.equal(data.discountGiven, 4.63);
    const paused = await call(
      t.app,
      'PATCH',
      `/rest/checkout/promotion/${id}`,
      { token: marketing },
      { active: false },
    );
    assert.equal(paused.statusCode, 200, paused.body);
    assert.equal((await quote(await fillCart(t.app, {}, [[product, 1]]))).promotionDiscount, 0);
  });

  test('when a promotion is edited, added or ends between two quotes of one cart, then each quote applies the promotions as they are then', async () => {
    await pauseAll();
    const product = await makeProduct(t.app.db, { price: 2000 });
    const who = await fillCart(t.app, {}, [[product, 1]]);
    const id = await createPromotion({ name: 'Ten', priority: 5, action: { type: 'percent', value: 10 } });
    assert.deepEqual((await quote(who)).promotions, [{ id, name: 'Ten', amount: 2 }]);
    assert.deepEqual((await quote(who)).promotions, [{ id, name: 'Ten', amount: 2 }], 'asked again, the same');
    const path = `/rest/checkout/promotion/${id}`;
    const edited = await call(t.app, 'PATCH', path, { token: marketing }, { name: 'Twenty', action: { type: 'percent', value: 20 } });
    assert.equal(edited.statusCode, 200, edited.body);
    assert.deepEqual((await quote(who)).promotions, [{ id, name: 'Twenty', amount: 4 }]);
    const endsAt = new Date(Date.now() + 1500);
    const second = await createPromotion({ name: 'Brief', action: { type: 'fixed', value: 1 }, endsAt: endsAt.toISOString() });
    assert.deepEqual((await quote(who)).promotions, [
      { id, name: 'Twenty', amount: 4 },
      { id: second, name: 'Brief', amount: 1 },
    ]);
    // No write when it ends: the quote's time decides which promotions run.
    await new Promise((resolve) => setTimeout(resolve, endsAt.getTime() - Date.now() + 50));
    assert.deepEqual((await quote(who)).promotions, [{ id, name: 'Twenty', amount: 4 }]);
  });

  test('when a promotion is edited after a quote, then the order placed next applies it as edited', async () => {
    await pauseAll();
    const product = await makeProduct(t.app.db, { price: 2000 });
    const transportId = await makeTransport(t.app.db, { price: 0 });
    const who = await fillCart(t.app, {}, [[product, 1]]);
    const id = await createPromotion({ name: 'Ten', action: { type: 'percent', value: 10 } });
    assert.deepEqual((await quote(who)).promotions, [{ id, name: 'Ten', amount: 2 }]);
    const edited = await call(t.app, 'PATCH', `/rest/checkout/promotion/${id}`, { token: marketing }, {
      name: 'Twenty',
      action: { type: 'percent', value: 20 },
    });
    assert.equal(edited.statusCode, 200, edited.body);
    // The quote before kept the promotions of their old version; the order's transaction sees the new one.
    const res = await placeOrder(t.app, who, { transportId, email: 'e@example.com', payWay: 'bank_transfer' });
    assert.equal(res.statusCode, 201, res.body);
    const order = (res.json() as { data: { totals: Quote } }).data;
    assert.deepEqual(order.totals.promotions, [{ id, name: 'Twenty', amount: 4 }]);
    assert.equal(order.totals.total, 16);
  });

  test('when a promotion has a Greek name, then the quote and the order name it in the locale asked for', async () => {
    await pauseAll();
    const product = await makeProduct(t.app.db, { price: 2000 });
    const id = await createPromotion({
      name: 'Five off',
      translations: { el: { name: 'Έκπτωση 5 %' } },
      action: { type: 'percent', value: 5 },
    });
    const transportId = await makeTransport(t.app.db, { price: 0 });
    const who = await fillCart(t.app, {}, [[product, 1]]);
    const named = async (extra: Record<string, string>) => {
      const res = await call(t.app, 'POST', '/rest/v1/checkout/totals', who, { transportId }, extra);
      assert.equal(res.statusCode, 200, res.body);
      return (res.json() as Quote).promotions.map((p) => `${p.name} ${p.amount}`);
    };
    assert.deepEqual(
      [
        await named({}),
        await named({ 'accept-language': 'el-GR,el;q=0.9' }),
        await named({ 'accept-language': 'fr' }),
      ],
      [['Five off 1'], ['Έκπτωση 5 % 1'], ['Five off 1']],
    );
    const res = await call(t.app, 'POST', '/rest/checkout/place-order?locale=el', who, {
      ...ADDRESS,
      transportId,
      email: 'el@example.com',
      payWay: 'bank_transfer',
      expectedTotal: 19,
    });
    assert.equal(res.statusCode, 201, res.body);
    const order = (res.json() as { data: { totals: Quote } }).data;
    assert.deepEqual(order.totals.promotions, [{ id, name: 'Έκπτωση 5 %', amount: 1 }]);
  });

  test('when two orders race for the last use of a promotion, then only one of them gets it', async () => {
    await pauseAll();
    const product = await makeProduct(t.app.db, { price: 1000 });
    const id = await createPromotion({
      name: 'Last one',
      usageLimit: 1,
      action: { type: 'fixed', value: 2 },
    });
    const transportId = await makeTransport(t.app.db, { price: 0 });
    const carts = await Promise.all([
      fillCart(t.app, {}, [[product, 1]]),
      fillCart(t.app, {}, [[product, 1]]),
    ]);
    const answers = await Promise.all(
      carts.map((who, i) =>
        placeOrder(t.app, who, { transportId, email: `r${i}@example.com`, payWay: 'bank_transfer' }),
      ),
    );
    const placed = answers.filter((r) => r.statusCode === 201);
    for (const r of answers) assert.ok([201, 422].includes(r.statusCode), r.body);
    const discounted = placed.filter(
      (r) => (r.json() as { data: { totals: Quote } }).data.totals.promotionDiscount === 2,
    );
    assert.equal(discounted.length, 1);
    const [row] = await queryRows<{ n: number; used: number }>(
      t.app.db,
      sql`select (select count(*)::int from promotion_redemption where promotion_id = ${id}) as n,
                 (select used_count from promotion where id = ${id}) as used`,
    );
    assert.deepEqual(row, { n: 1, used: 1 });
    const next = await fillCart(t.app, {}, [[product, 1]]);
    assert.equal((await quote(next)).promotionDiscount, 0, 'used up: no longer in the quote');
  });

  test('when a promotion names a parent category, then a product below it gets it until its category is moved out', async () => {
    await pauseAll();
    const superuser = await adminToken(t.app, [1]);
    const made = async (parentId: number | null) => {
      const slug = `c-${Math.random().toString(36).slice(2)}`;
      const res = await call(t.app, 'POST', '/rest/product/category', { token: superuser }, { name: slug, slug, parentId });
      assert.equal(res.statusCode, 201, res.body);
      return (res.json() as { data: { id: number } }).data.id;
    };
    const parent = await made(null);
    const child = await made(await made(parent));
    const product = await makeProduct(t.app.db, { price: 1000, categoryId: child });
    const id = await createPromotion({ name: 'Below', conditions: { categoryIds: [parent] }, action: { type: 'percent', value: 10 } });
    const who = await fillCart(t.app, {}, [[product, 1]]);
    assert.deepEqual((await quote(who)).promotions, [{ id, name: 'Below', amount: 1 }]);
    assert.deepEqual((await quote(who)).promotions, [{ id, name: 'Below', amount: 1 }], 'asked again, the same');
    const moved = await call(t.app, 'PATCH', `/rest/product/category/${child}`, { token: superuser }, { parentId: null });
    assert.equal(moved.statusCode, 200, moved.body);
    assert.deepEqual((await quote(who)).promotions, []);
  });
});

describe('the promotions report', () => {
  test('when orders used a promotion, then the report gives its orders and discount in JSON and CSV, and a cancelled order drops out', async () => {
    await pauseAll();
    const product = await makeProduct(t.app.db, { price: 1500 });
    const id = await createPromotion({ name: 'Reported, "quoted"', action: { type: 'fixed', value: 2.5 } });
    const transportId = await makeTransport(t.app.db, { price: 0 });
    const orders: number[] = [];
    for (const i of [1, 2, 3]) {
      const who = await fillCart(t.app, {}, [[product, 1]]);
      const res = await placeOrder(t.app, who, {
        transportId,
        email: `rep${i}@example.com`,
        payWay: 'bank_transfer',
      });
      assert.equal(res.statusCode, 201, res.body);
      orders.push((res.json() as { data: { id: number } }).data.id);
    }
    const ops = await adminToken(t.app, [6]);
    const cancel = await call(t.app, 'POST', `/rest/order/order/${orders[2]}/cancel`, { token: ops }, {});
    assert.equal(cancel.statusCode, 200, cancel.body);
    const json = await call(t.app, 'GET', '/rest/report/promotions', { token: marketing });
    assert.equal(json.statusCode, 200, json.body);
    const row = (json.json() as { data: Record<string, unknown>[] }).data.find((r) => r.promotionId === id);
    assert.deepEqual(row, { promotionId: id, name: 'Reported, "quoted"', orders: 2, discount: 5, gross: 25 });
    const csv = await call(t.app, 'GET', '/rest/report/promotions', { token: marketing }, undefined, {
      accept: 'text/csv',
    });
    assert.equal(csv.statusCode, 200);
    assert.ok(csv.body.startsWith('promotionId,name,orders,discount,gross'));
    assert.ok(csv.body.includes(`${id},"Reported, ""quoted""",2,5.00,25.00`), csv.body);
  });
});

describe('returns after a promotion', () => {
  test('when an order with a promotion on one line and a coupon is returned, then each line refunds what was charged for it, to the cent', async () => {
    await pauseAll();
    const onSale = await makeProduct(t.app.db, { price: 1000 });
    const other = await makeProduct(t.app.db, { price: 2001 });
    await createPromotion({
      name: 'One line',
      conditions: { productIds: [onSale] },
      action: { type: 'percent', value: 33 },
    });
    const coupon = await makeCoupon(t.app.db, { type: 'fixed', value: 500 });
    const transportId = await makeTransport(t.app.db, { price: 500 });
    const who = await fillCart(t.app, {}, [
      [onSale, 3],
      [other, 1],
    ]);
    await call(t.app, 'POST', '/rest/cart/coupon', who, { code: coupon.code });
    const placed = await placeOrder(t.app, who, {
      transportId,
      email: 'ret@example.com',
      payWay: 'bank_transfer',
    });
    assert.equal(placed.statusCode, 201, placed.body);
    const order = (placed.json() as { data: { id: number; total: number; lines: { id: number }[] } }).data;
    // 33 % of 30.00 = 9.90 off line A; the coupon 5.00 over 20.10 / 20.01 → 2.51 / 2.49.
    assert.equal(order.total, 40.11);
    const ops = await adminToken(t.app, [6]);
    const path = `/rest/order/order/${order.id}`;
    for (const step of [
      () => call(t.app, 'POST', `${path}/transition`, { token: ops }, { to: 'confirmed' }),
      () => call(t.app, 'POST', `${path}/shipment`, { token: ops }, { carrier: 'ACS', trackingNumber: 'X1' }),
      () => call(t.app, 'POST', `${path}/payment`, { token: ops }, {}),
    ]) {
      const res = await step();
      assert.equal(res.statusCode, 200, res.body);
    }
    const [lineA, lineB] = order.lines;
    const back = await call(
      t.app,
      'POST',
      `${path}/return`,
      { token: ops },
      {
        lines: [
          { orderLineId: lineA.id, qty: 3 },
          { orderLineId: lineB.id, qty: 1 },
        ],
        restock: true,
      },
    );
    assert.equal(back.statusCode, 201, back.body);
    const returned = (
      back.json() as { data: { refunded: number; returns: { lines: { amount: number }[] }[] } }
    ).data;
    assert.deepEqual(
      returned.returns[0].lines.map((l) => l.amount),
      [17.59, 17.52],
    );
    assert.equal(returned.refunded, 35.11, 'the goods as charged: the total less the shipping');
  });
});

describe('promotion writes', () => {
  const post = (body: Record<string, unknown>) =>
    call(
      t.app,
      'POST',
      '/rest/checkout/promotion',
      { token: marketing },
      { name: 'X', kind: 'cart', ...body },
    );
  const fieldsOf = (res: { json(): unknown }) =>
    (res.json() as { error: { details?: { field: string }[] } }).error.details?.map((d) => d.field) ?? [];

  test('when a percent is over 100, then the write is a 400 naming action.value', async () => {
    const res = await post({ action: { type: 'percent', value: 150 } });
    assert.equal(res.statusCode, 400, res.body);
    assert.deepEqual(fieldsOf(res), ['action.value']);
  });

  test('when an action lacks a field its type needs, then the write is a 400 naming it, never a 500', async () => {
    const res = await post({ action: { type: 'tiered' } });
    assert.equal(res.statusCode, 400, res.body);
    assert.deepEqual(fieldsOf(res), ['action.tiers']);
  });

  test('when endsAt is before startsAt, then the write is a 400 naming endsAt', async () => {
    const res = await post({
      action: { type: 'percent', value: 5 },
      startsAt: '2030-02-01T00:00:00.000Z',
      endsAt: '2030-01-01T00:00:00.000Z',
    });
    assert.equal(res.statusCode, 400, res.body);
    assert.deepEqual(fieldsOf(res), ['endsAt']);
  });

  test('when a condition names an unknown category or product, then the write is a 400 naming it', async () => {
    const res = await post({
      action: { type: 'percent', value: 5 },
      conditions: { categoryIds: [999999], productIds: [999998] },
    });
    assert.equal(res.statusCode, 400, res.body);
    assert.deepEqual(fieldsOf(res).sort(), ['conditions.categoryIds', 'conditions.productIds']);
  });

  test('when two exclusive promotions of one priority overlap in time, then the second is a 409 and nothing is written', async () => {
    const body = {
      action: { type: 'percent', value: 5 },
      exclusive: true,
      priority: 77,
      startsAt: '2031-01-01T00:00:00.000Z',
      endsAt: '2031-02-01T00:00:00.000Z',
    };
    assert.equal((await post(body)).statusCode, 201);
    const clash = await post({
      ...body,
      startsAt: '2031-01-31T00:00:00.000Z',
      endsAt: '2031-03-01T00:00:00.000Z',
    });
    assert.equal(clash.statusCode, 409, clash.body);
    const after = await post({
      ...body,
      startsAt: '2031-02-01T00:00:00.000Z',
      endsAt: '2031-03-01T00:00:00.000Z',
    });
    assert.equal(after.statusCode, 201, 'a window starting when the other ends does not overlap');
  });
});
