import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import {
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

// The quote is what gets charged (docs/checkout.md, "Place-order"): over varied carts, the totals endpoint and
// place-order must agree on every figure, and the order's VAT lines must add up to its total.

const cents = (n: number) => Math.round(n * 100);

describe('totals and place-order agree', () => {
  let t: TestApp;
  let products: number[];
  let transports: number[];
  let coupons: (string | null)[];
  let gift: { id: number; productId: number };

  before(async () => {
    // Carts here reach a few thousand: cash on delivery is not capped for them (order-limits.test.ts).
    t = await startTestApp({ config: { settings: { cod_max_total: 10_000_000 } } });
    const db = t.app.db;
    const specs = [
      { price: 1999, weightKg: 0.35, vatRate: 19 },
      { price: 5, weightKg: 0, vatRate: 7 },
      { price: 12_345, weightKg: 4.2, vatRate: 19 },
      { price: 333, weightKg: 1.001, vatRate: 5.5 },
      { price: 899, weightKg: 0.1, vatRate: 0 },
      { price: 25_000, weightKg: 12, vatRate: 7 },
    ];
    products = [];
    for (const s of specs) products.push(await makeProduct(db, { ...s, stockQty: 1_000_000 }));
    transports = [
      await makeTransport(db, {
        price: 490,
        freeShippingThreshold: 5000,
        includedWeightKg: 5,
        overweightPricePerKg: 120,
        codFee: 300,
      }),
      await makeTransport(db, { price: 0, codFee: 199 }),
      await makeTransport(db, {
        price: 1290,
        freeShippingThreshold: null,
        includedWeightKg: 0,
        overweightPricePerKg: 35,
      }),
    ];
    coupons = [
      null,
      (await makeCoupon(db, { type: 'percent', value: 1250 })).code,
      (await makeCoupon(db, { type: 'fixed', value: 777, minSubtotal: 2000 })).code,
      (await makeCoupon(db, { type: 'percent', value: 3333 })).code,
    ];
    const giftProduct = await makeProduct(db, {
      price: 1500,
      weightKg: 0.5,
      vatRate: 19,
      stockQty: 1_000_000,
    });
    gift = {
      id: await makeGift(db, { productIds: [giftProduct], minSubtotal: 3000, maxQty: 2 }),
      productId: giftProduct,
    };
  });
  after(async () => t.close());

  test('when varied carts are quoted then placed, then the order total and every figure equal the quote', async () => {
    const cart = fc.uniqueArray(fc.tuple(fc.nat({ max: 5 }), fc.integer({ min: 1, max: 6 })), {
      minLength: 1,
      maxLength: 5,
      selector: ([i]) => i,
    });
    const options = fc.record({
      transport: fc.nat({ max: 2 }),
      coupon: fc.nat({ max: 3 }),
      payWay: fc.constantFrom('delivery', 'card', 'bank_transfer'),
      giftPackaging: fc.boolean(),
      redeemPoints: fc.boolean(),
      points: fc.constantFrom(0, 99, 100, 250, 5_000, 100_000),
      giftQty: fc.nat({ max: 2 }),
    });
    await fc.assert(
      fc.asyncProperty(cart, options, async (lines, o) => {
        const me = { token: (await makeCustomer(t.app, o.points)).token };
        await fillCart(
          t.app,
          me,
          lines.map(([i, qty]) => [products[i], qty] as [number, number]),
        );
        const code = coupons[o.coupon];
        if (code)
          assert.equal((await call(t.app, 'POST', '/rest/cart/coupon', me, { code })).statusCode, 200);
        const body: Record<string, unknown> = {
          transportId: transports[o.transport],
          payWay: o.payWay,
          giftPackaging: o.giftPackaging,
          redeemPoints: o.redeemPoints,
        };
        const q = (await totals(t.app, me, body)).json() as Record<string, unknown> & { total: number };
        // Only gifts the quote accepts: place-order refuses a cart with a gift the buyer was not given.
        if (o.giftQty > 0 && cents(q.subtotal as number) >= 3000) {
          body.selectedGifts = [{ giftId: gift.id, productId: gift.productId, qty: o.giftQty }];
        }
        const quote = (await totals(t.app, me, body)).json() as Record<string, unknown> & { total: number };
        if (quote.couponError) {
          // A coupon the quote left out is never silently dropped at checkout: the order is refused.
          const refused = await placeOrder(t.app, me, { ...body, expectedTotal: quote.total });
          assert.equal(refused.statusCode, 422);
          assert.equal(refused.json().error.code, 'COUPON_INVALID');
          return;
        }
        const placed = await placeOrder(t.app, me, { ...body, expectedTotal: quote.total });
        assert.equal(placed.statusCode, 201, placed.body);
        const order = placed.json().data as {
          total: number;
          totals: Record<string, unknown>;
          vatBreakdown: { net: number; vat: number; gross: number }[];
        };
        assert.equal(order.total, quote.total);
        const { couponError: _c, giftErrors: _g, unavailableProducts: _u, ...figures } = quote;
        assert.deepEqual(order.totals, figures);
        const gross = order.vatBreakdown.reduce((sum, v) => {
          assert.equal(cents(v.net) + cents(v.vat), cents(v.gross));
          return sum + cents(v.gross);
        }, 0);
        assert.equal(gross, cents(order.total));
      }),
      { numRuns: 40 },
    );
  });
});
