import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  applyCartPromotions,
  type CartPromotion,
  type PromotionAction,
  type PromotionLine,
} from '../../src/modules/pricing/promotion-rules.ts';
import { computeTotals, type TotalsCoupon, type TotalsLine } from '../../src/modules/pricing/totals.ts';

// The cart promotions' rules (docs/promotions.md) as plain functions: examples in exact cents, then
// fast-check properties. Replay a failure with FC_SEED=<seed>.
const seed = Number(process.env.FC_SEED ?? Date.now());
const runs = { numRuns: 500, seed };

const line = (productId: number, unitPrice: number, qty: number, categoryPath: number[] = []): PromotionLine => ({
  productId,
  unitPrice,
  qty,
  categoryPath,
  brand: null,
});

const promo = (id: number, action: PromotionAction, more: Partial<CartPromotion> = {}): CartPromotion => ({
  id,
  name: `P${id}`,
  conditions: {},
  action,
  priority: 0,
  exclusive: false,
  combinesWithCoupons: true,
  ...more,
});

describe('cart promotion rules', () => {
  test('when buy 2 get 1 free runs over mixed prices, then the cheapest units are the free ones', () => {
    const out = applyCartPromotions(
      [promo(1, { type: 'buy_x_get_y', buyQty: 2, getQty: 1, percent: 100 })],
      [line(1, 1000, 2), line(2, 399, 2), line(3, 250, 2)],
      false,
    );
    // 6 units: two are free, both of product 3 (2.50 each).
    assert.deepEqual(out.perLine, [0, 0, 500]);
    assert.equal(out.discount, 500);
  });

  test('when a cart reaches the second tier, then that tier\'s percent applies, rounded half-up', () => {
    const tiers = { type: 'tiered' as const, tiers: [{ minSubtotal: 50, percent: 10 }, { minSubtotal: 100, percent: 15 }] };
    assert.equal(applyCartPromotions([promo(1, tiers)], [line(1, 4999, 1)], false).discount, 0);
    assert.equal(applyCartPromotions([promo(1, tiers)], [line(1, 5000, 1)], false).discount, 500);
    // 15 % of 100.03 = 15.0045 → 15.00
    assert.equal(applyCartPromotions([promo(1, tiers)], [line(1, 10003, 1)], false).discount, 1500);
  });

  test('when an exclusive promotion applies, then no promotion of lower priority follows it', () => {
    const out = applyCartPromotions(
      [
        promo(1, { type: 'percent', value: 10 }, { priority: 5, exclusive: true }),
        promo(2, { type: 'fixed', value: 5 }, { priority: 1 }),
      ],
      [line(1, 2000, 1)],
      false,
    );
    assert.deepEqual(
      out.applied.map((p) => [p.id, p.amount]),
      [[1, 200]],
    );
  });

  test('when a fixed promotion exceeds the qualifying lines, then it is capped at them', () => {
    const out = applyCartPromotions(
      [promo(1, { type: 'fixed', value: 50 }, { conditions: { productIds: [1] } })],
      [line(1, 1000, 1), line(2, 3000, 1)],
      false,
    );
    assert.deepEqual(out.perLine, [1000, 0]);
  });

  test('when a percent is split over lines, then the largest remainder keeps the cents exact', () => {
    // 10 % of 3 × 3.33 = 0.999 → 1.00, spread 34 / 33 / 33.
    const out = applyCartPromotions([promo(1, { type: 'percent', value: 10 })], [line(1, 333, 1), line(2, 333, 1), line(3, 333, 1)], false);
    assert.deepEqual(out.perLine, [34, 33, 33]);
  });
  test('when the worked example of docs/promotions.md is priced, then its figures come out', () => {
    const t = computeTotals({
      lines: [
        { productId: 1, unitPrice: 1080, qty: 2, weightKg: 0, vatRate: 7 },
        { productId: 2, unitPrice: 800, qty: 1, weightKg: 0, vatRate: 19 },
      ],
      cartPromotions: [
        promo(1, { type: 'buy_x_get_y', buyQty: 2, getQty: 1, percent: 100 }, { name: '3 for 2', priority: 10 }),
        promo(2, { type: 'percent', value: 5 }, { name: '5 % from 20.00', conditions: { minSubtotal: 20 } }),
      ],
      coupon: { code: 'FIVE', type: 'percent', value: 5, minSubtotal: 0, valid: true },
      transport: { price: 490, freeShippingThreshold: 2500, includedWeightKg: 0, overweightPricePerKg: 0, codFee: 0 },
    });
    assert.deepEqual(
      t.promotions.map((p) => [p.name, p.amount, p.lines]),
      [
        ['3 for 2', 800, [0, 800]],
        ['5 % from 20.00', 108, [108, 0]],
      ],
    );
    assert.deepEqual(
      [t.goods, t.promotionDiscount, t.couponDiscount, t.merchandise, t.shippingCost, t.total],
      [2960, 908, 103, 1949, 490, 2439],
    );
  });
});

const actionArb
: fc.Arbitrary<PromotionAction> = fc.oneof(
  fc.record({ type: fc.constant('percent' as const), value: fc.integer({ min: 0, max: 10000 }).map((v) => v / 100) }),
  fc.record({ type: fc.constant('fixed' as const), value: fc.integer({ min: 1, max: 100000 }).map((v) => v / 100) }),
  fc.record({
    type: fc.constant('buy_x_get_y' as const),
    buyQty: fc.integer({ min: 1, max: 4 }),
    getQty: fc.integer({ min: 1, max: 3 }),
    percent: fc.integer({ min: 0, max: 100 }),
  }),
  fc.record({
    type: fc.constant('tiered' as const),
    tiers: fc.uniqueArray(fc.record({ minSubtotal: fc.integer({ min: 0, max: 500 }), percent: fc.integer({ min: 1, max: 100 }) }), {
      minLength: 1,
      maxLength: 4,
      selector: (t) => t.minSubtotal,
    }).map((tiers) => {
      // As written through the API: a higher tier never gives a lower percent.
      const percents = tiers.map((t) => t.percent).sort((a, b) => a - b);
      return [...tiers].sort((a, b) => a.minSubtotal - b.minSubtotal).map((t, i) => ({ ...t, percent: percents[i] }));
    }),
  }),
);

const promotionArb: fc.Arbitrary<CartPromotion> = fc.record({
  id: fc.integer({ min: 1, max: 50 }),
  name: fc.constant('P'),
  conditions: fc.record(
    {
      productIds: fc.array(fc.integer({ min: 1, max: 6 }), { maxLength: 3 }),
      minSubtotal: fc.integer({ min: 0, max: 30000 }).map((c) => c / 100),
      minQty: fc.integer({ min: 1, max: 6 }),
      customersOnly: fc.boolean(),
    },
    { requiredKeys: [] },
  ),
  action: actionArb,
  priority: fc.integer({ min: 0, max: 3 }),
  exclusive: fc.boolean(),
  combinesWithCoupons: fc.boolean(),
});

const totalsLineArb: fc.Arbitrary<TotalsLine> = fc.record({
  productId: fc.integer({ min: 1, max: 6 }),
  unitPrice: fc.integer({ min: 0, max: 20000 }),
  qty: fc.integer({ min: 1, max: 5 }),
  weightKg: fc.constant(0),
  vatRate: fc.constantFrom(7, 19),
});

const couponArb: fc.Arbitrary<TotalsCoupon | null> = fc.option(
  fc.oneof(
    fc.record({
      code: fc.constant('PCT'),
      type: fc.constant('percent' as const),
      value: fc.integer({ min: 0, max: 100 }),
      minSubtotal: fc.constant(0),
      valid: fc.constant(true),
    }),
    fc.record({
      code: fc.constant('FIX'),
      type: fc.constant('fixed' as const),
      value: fc.integer({ min: 1, max: 50000 }),
      minSubtotal: fc.constant(0),
      valid: fc.constant(true),
    }),
  ),
);

describe('cart promotion properties', () => {
  test('when any promotions meet any cart, then each discount is the sum of its line shares and no figure goes negative', () => {
    fc.assert(
      fc.property(
        fc.array(promotionArb, { maxLength: 5 }),
        fc.array(totalsLineArb, { minLength: 1, maxLength: 6 }),
        couponArb,
        fc.boolean(),
        (promotions, lines, coupon, isCustomer) => {
          const t = computeTotals({ lines, cartPromotions: promotions, coupon, isCustomer });
          for (const p of t.promotions) assert.equal(p.lines.reduce((a, b) => a + b, 0), p.amount);
          assert.equal(t.promotionDiscount, t.promotions.reduce((a, p) => a + p.amount, 0));
          lines.forEach((l, i) => {
            const share = t.promotions.reduce((a, p) => a + p.lines[i], 0);
            assert.ok(share <= l.unitPrice * l.qty, 'a line never goes below zero');
          });
          assert.equal(t.merchandise, t.goods - t.promotionDiscount - t.couponDiscount);
          for (const figure of [t.merchandise, t.total, t.couponDiscount, t.promotionDiscount]) assert.ok(figure >= 0);
          const vatGross = t.vatBreakdown.reduce((a, v) => a + v.gross, 0);
          assert.equal(vatGross, t.total, 'the VAT breakdown sums to the total');
        },
      ),
      runs,
    );
  });

  test('when a qualifying unit of a line is added under a percent, fixed or tiered promotion, then the discount never falls', () => {
    const scaled = actionArb.filter((a) => a.type !== 'buy_x_get_y');
    fc.assert(
      fc.property(scaled, fc.array(totalsLineArb, { minLength: 1, maxLength: 5 }), fc.nat(4), (action, lines, pick) => {
        const promotions = [promo(1, action)];
        const before = computeTotals({ lines, cartPromotions: promotions });
        const index = pick % lines.length;
        const more = lines.map((l, i) => (i === index ? { ...l, qty: l.qty + 1 } : l));
        const after = computeTotals({ lines: more, cartPromotions: promotions });
        assert.ok(after.promotionDiscount >= before.promotionDiscount);
        assert.ok(after.total <= before.total + lines[index].unitPrice, 'never more than the unit added');
      }),
      runs,
    );
  });

  test('when every qualifying unit costs the same under buy x get y, then adding one never costs more than its price', () => {
    fc.assert(
      fc.property(
        actionArb.filter((a) => a.type === 'buy_x_get_y'),
        fc.integer({ min: 0, max: 20000 }),
        fc.integer({ min: 1, max: 20 }),
        (action, price, qty) => {
          const at = (n: number) =>
            computeTotals({
              lines: [{ productId: 1, unitPrice: price, qty: n, weightKg: 0, vatRate: 19 }],
              cartPromotions: [promo(1, action)],
            }).total;
          // It may even lower the total: the unit can complete a group whose discount is over half.
          assert.ok(at(qty + 1) <= at(qty) + price);
        },
      ),
      runs,
    );
  });
});
