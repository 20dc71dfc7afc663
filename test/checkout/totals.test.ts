import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
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
  totals,
  type Who,
} from './fixtures.ts';

type Totals = Record<string, number> & {
  loyalty: Record<string, number | boolean>;
  couponError?: string;
  giftErrors?: { giftId: number; productId: number; reason: string }[];
  unavailableProducts?: number[];
};

const MONEY = [
  'subtotal',
  'shippingCost',
  'overweightCost',
  'deliveryCost',
  'couponDiscount',
  'giftPackagingCost',
  'giftDiscount',
  'pointsCash',
  'payableBeforePoints',
  'total',
];

function quoteOf(res: { statusCode: number; body: string; json(): unknown }): Totals {
  assert.equal(res.statusCode, 200, res.body);
  const q = res.json() as Totals;
  for (const k of MONEY)
    assert.ok(
      Number.isInteger(Math.round(q[k] * 100)) && Math.abs(q[k] * 100 - Math.round(q[k] * 100)) < 1e-6,
      `${k} has ≤ 2 decimals`,
    );
  return q;
}

/** The charged amount rebuilt from the additive terms only: overweight and payableBeforePoints never appear. */
function additive(q: Totals): number {
  const cents = (k: string) => Math.round(q[k] * 100);
  return (
    cents('subtotal') -
    cents('giftDiscount') -
    cents('couponDiscount') +
    cents('shippingCost') +
    cents('deliveryCost') +
    cents('giftPackagingCost') -
    cents('pointsCash')
  );
}

describe('POST /rest/v1/checkout/totals', () => {
  let t: TestApp;
  let guestWith: (lines: [number, number][]) => Promise<Who>;
  before(async () => {
    t = await startTestApp();
    guestWith = (lines) => fillCart(t.app, {}, lines);
  });
  after(async () => t.close());

  test('when the cart is empty or missing, then 200 with every figure 0 (bare object, no envelope)', async () => {
    const transportId = await makeTransport(t.app.db, { price: 500, codFee: 300 });
    for (const who of [{}, { cart: 'D'.repeat(43) }, { token: (await makeCustomer(t.app)).token }]) {
      const q = quoteOf(await totals(t.app, who, { transportId, payWay: 'delivery', giftPackaging: true }));
      assert.equal((q as unknown as { success?: boolean }).success, undefined);
      for (const k of [...MONEY, 'itemCount', 'pointsSpend']) assert.equal(q[k], 0, k);
    }
  });

  test('when transportId is unknown or inactive, then 422 TRANSPORT_INVALID', async () => {
    const off = await makeTransport(t.app.db, { active: false });
    const p = await makeProduct(t.app.db);
    const guest = await guestWith([[p, 1]]);
    const ada = await makeCustomer(t.app);
    await fillCart(t.app, { token: ada.token }, [[p, 1]]);
    // Without a cart, with a guest cart, with a customer cart: each reads the transport its own way.
    for (const who of [{}, guest, { token: ada.token }]) {
      for (const transportId of [off, 2_000_000_000]) {
        const res = await totals(t.app, who, { transportId });
        assert.equal(res.statusCode, 422);
        assert.equal(res.json().error.code, 'TRANSPORT_INVALID');
      }
    }
  });

  test('when the body names a price, a total or any unknown field, then 400', async () => {
    for (const extra of [
      { price: 1 },
      { total: 0 },
      { couponDiscount: 50 },
      { payWay: 'bitcoin' },
      { selectedGifts: [{ giftId: 1, productId: 1, qty: 1, price: 0 }] },
    ]) {
      const res = await totals(t.app, {}, extra);
      assert.equal(res.statusCode, 400, JSON.stringify(extra));
    }
  });

  test('when a coupon brings merchandise under the threshold, then shipping is charged: a coupon removes free shipping, never earns it', async () => {
    const p = await makeProduct(t.app.db, { price: 6000 });
    const transportId = await makeTransport(t.app.db, { price: 490, freeShippingThreshold: 5000 });
    const who = await guestWith([[p, 1]]);
    const free = quoteOf(await totals(t.app, who, { transportId }));
    assert.equal(free.shippingCost, 0);
    assert.equal(free.total, 60);
    const coupon = await makeCoupon(t.app.db, { type: 'percent', value: 2000 });
    await call(t.app, 'POST', '/rest/cart/coupon', who, { code: coupon.code });
    const q = quoteOf(await totals(t.app, who, { transportId }));
    assert.equal(q.couponDiscount, 12);
    assert.equal(q.shippingCost, 4.9);
    assert.equal(q.total, 52.9);

    const below = await guestWith([[await makeProduct(t.app.db, { price: 4500 }), 1]]);
    const big = await makeCoupon(t.app.db, { type: 'fixed', value: 1000 });
    await call(t.app, 'POST', '/rest/cart/coupon', below, { code: big.code });
    const q2 = quoteOf(await totals(t.app, below, { transportId }));
    assert.equal(q2.shippingCost, 4.9, 'still below the threshold after the coupon');
    assert.equal(q2.total, 39.9);
  });

  test('when the parcel is overweight, then overweightCost is inside shippingCost and the total counts it once', async () => {
    const p = await makeProduct(t.app.db, { price: 1000, weightKg: 2.4 });
    const transportId = await makeTransport(t.app.db, {
      price: 490,
      includedWeightKg: 5,
      overweightPricePerKg: 100,
    });
    const who = await guestWith([[p, 3]]); // 7.2 kg → 3 started kg over 5
    const q = quoteOf(await totals(t.app, who, { transportId }));
    assert.equal(q.overweightCost, 3);
    assert.equal(q.shippingCost, 7.9);
    assert.equal(q.total, 37.9);
    assert.equal(Math.round(q.total * 100), additive(q));
  });

  test('when points are redeemed, then total = payableBeforePoints − pointsCash and payableBeforePoints is never a term of it', async () => {
    const p = await makeProduct(t.app.db, { price: 2345 });
    const transportId = await makeTransport(t.app.db, { price: 500, codFee: 250 });
    const ada = await makeCustomer(t.app, 1250);
    await fillCart(t.app, { token: ada.token }, [[p, 2]]);
    const q = quoteOf(
      await totals(t.app, { token: ada.token }, { transportId, payWay: 'delivery', redeemPoints: true }),
    );
    assert.equal(q.payableBeforePoints, 46.9 + 5 + 2.5);
    assert.deepEqual(q.loyalty, {
      pointSystemEnabled: true,
      spendPoints: 100,
      rewardCashPerUnit: 5,
      balance: 1250,
      redeemablePoints: 1000,
      redeemableCash: 50,
      canRedeem: true,
      wouldExceed: true,
    });
    assert.equal(q.pointsSpend, 1000);
    assert.equal(q.pointsCash, 50);
    assert.equal(q.total, 4.4);
    assert.equal(Math.round(q.total * 100), additive(q));
    const noRedeem = quoteOf(await totals(t.app, { token: ada.token }, { transportId, payWay: 'card' }));
    assert.equal(noRedeem.pointsSpend, 0);
    assert.equal(noRedeem.deliveryCost, 0);
    assert.equal(noRedeem.total, 51.9);
  });

  test('when a guest asks, then loyalty shows balance 0 and canRedeem false, even with redeemPoints', async () => {
    const who = await guestWith([[await makeProduct(t.app.db), 1]]);
    const q = quoteOf(await totals(t.app, who, { redeemPoints: true }));
    assert.equal(q.loyalty.balance, 0);
    assert.equal(q.loyalty.canRedeem, false);
    assert.equal(q.loyalty.wouldExceed, false);
    assert.equal(q.pointsCash, 0);
  });

  test('when gift packaging is asked, then its price is charged on top, and a settings change shows at once', async () => {
    const who = await guestWith([[await makeProduct(t.app.db, { price: 1000 }), 1]]);
    const q = quoteOf(await totals(t.app, who, { giftPackaging: true }));
    assert.equal(q.giftPackagingCost, 9.99);
    assert.equal(q.total, 19.99);
    const admin = await adminToken(t.app, [1]);
    const put = await call(
      t.app,
      'PUT',
      '/rest/system/setting/gift_packaging_price',
      { token: admin },
      { value: 2.5 },
    );
    assert.equal(put.statusCode, 200, put.body);
    try {
      const q2 = quoteOf(await totals(t.app, who, { giftPackaging: true }));
      assert.equal(q2.giftPackagingCost, 2.5);
      assert.equal(q2.total, 12.5);
    } finally {
      await call(t.app, 'DELETE', '/rest/system/setting/gift_packaging_price', { token: admin });
    }
  });

  test('when a gift qualifies, then it is free: its value is in subtotal and giftDiscount, its unit in itemCount, the total unchanged', async () => {
    const p = await makeProduct(t.app.db, { price: 3000 });
    const giftProduct = await makeProduct(t.app.db, { price: 1500 });
    const giftId = await makeGift(t.app.db, { productIds: [giftProduct], minSubtotal: 2000, maxQty: 1 });
    const who = await guestWith([[p, 1]]);
    const q = quoteOf(
      await totals(t.app, who, { selectedGifts: [{ giftId, productId: giftProduct, qty: 1 }] }),
    );
    assert.equal(q.subtotal, 45);
    assert.equal(q.giftDiscount, 15);
    assert.equal(q.itemCount, 2);
    assert.equal(q.total, 30);
    assert.equal(q.giftErrors, undefined);
  });

  test('when a gift does not qualify, then it is left out and giftErrors says why', async () => {
    const p = await makeProduct(t.app.db, { price: 1000 });
    const g = await makeProduct(t.app.db, { price: 500 });
    const other = await makeProduct(t.app.db, { price: 500 });
    const rich = await makeGift(t.app.db, { productIds: [g], minSubtotal: 5000 });
    const open = await makeGift(t.app.db, { productIds: [g], maxQty: 1 });
    const who = await guestWith([[p, 1]]);
    const q = quoteOf(
      await totals(t.app, who, {
        selectedGifts: [
          { giftId: rich, productId: g, qty: 1 },
          { giftId: open, productId: other, qty: 1 },
          { giftId: open, productId: g, qty: 2 },
          { giftId: 2_000_000_000, productId: g, qty: 1 },
        ],
      }),
    );
    assert.deepEqual(
      q.giftErrors?.map((e) => e.reason),
      ['GIFT_MIN_SUBTOTAL', 'GIFT_PRODUCT_NOT_ELIGIBLE', 'GIFT_QTY_EXCEEDED', 'GIFT_UNKNOWN'],
    );
    assert.equal(q.giftDiscount, 0);
    assert.equal(q.total, 10);
  });

  test('when the cart coupon became invalid or is under its minimum, then it is left out with couponError', async () => {
    const p = await makeProduct(t.app.db, { price: 1000 });
    const who = await guestWith([[p, 1]]);
    const c = await makeCoupon(t.app.db, { type: 'fixed', value: 300 });
    await call(t.app, 'POST', '/rest/cart/coupon', who, { code: c.code });
    assert.equal(quoteOf(await totals(t.app, who)).couponDiscount, 3);
    await t.app.db.execute(sql`update coupon set active = false where id = ${c.id}`);
    const q = quoteOf(await totals(t.app, who));
    assert.equal(q.couponError, 'COUPON_INACTIVE');
    assert.equal(q.couponDiscount, 0);
    const min = await makeCoupon(t.app.db, { type: 'fixed', value: 300, minSubtotal: 5000 });
    await call(t.app, 'POST', '/rest/cart/coupon', who, { code: min.code });
    assert.equal(quoteOf(await totals(t.app, who)).couponError, 'COUPON_MIN_SUBTOTAL');
    // Its window, read with the cart in the quote's one statement: ended a second ago, or starting tomorrow.
    const ended = await makeCoupon(t.app.db, { type: 'fixed', value: 300 });
    await call(t.app, 'POST', '/rest/cart/coupon', who, { code: ended.code });
    await t.app.db.execute(
      sql`update coupon set ends_at = now() - interval '1 second' where id = ${ended.id}`,
    );
    assert.equal(quoteOf(await totals(t.app, who)).couponError, 'COUPON_EXPIRED');
    await t.app.db.execute(
      sql`update coupon set ends_at = null, starts_at = now() + interval '1 day' where id = ${ended.id}`,
    );
    assert.equal(quoteOf(await totals(t.app, who)).couponError, 'COUPON_NOT_STARTED');
  });

  test('when a product in the cart was deactivated, then its line is left out and named in unavailableProducts', async () => {
    const [a, b] = [
      await makeProduct(t.app.db, { price: 1000 }),
      await makeProduct(t.app.db, { price: 2000 }),
    ];
    const who = await guestWith([
      [a, 1],
      [b, 1],
    ]);
    await t.app.db.execute(sql`update product set active = false where id = ${b}`);
    const q = quoteOf(await totals(t.app, who));
    assert.equal(q.total, 10);
    assert.deepEqual(q.unavailableProducts, [b]);
  });

  test('when an admin token is sent, then 403', async () => {
    const res = await totals(t.app, { token: await adminToken(t.app, [1]) });
    assert.equal(res.statusCode, 403);
  });
});
