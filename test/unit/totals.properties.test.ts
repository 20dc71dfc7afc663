import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  computeTotals,
  type GiftRule,
  type LoyaltyInput,
  type SelectedGift,
  type TotalsCoupon,
  type TotalsInput,
  type TotalsLine,
  type TotalsResult,
  type TotalsTransport,
} from '../../src/modules/pricing/totals.ts';

// Replay a failure with FC_SEED=<seed> (fast-check's message also prints the seed and the path).
const seed = Number(process.env.FC_SEED ?? Date.now());
const runs = { numRuns: 1000, seed };

const cents = (max: number) => fc.integer({ min: 0, max });
const kg = fc.integer({ min: 0, max: 50000 }).map((g) => g / 1000);
const vatRate = fc.constantFrom(0, 5.5, 7, 10, 19, 20, 21);

// Mostly small, everyday carts (so thresholds and coupons interact), sometimes huge ones.
const mostlySmall = (small: number, max: number) =>
  fc.oneof(
    { arbitrary: fc.integer({ min: 1, max: small }), weight: 4 },
    { arbitrary: fc.integer({ min: 1, max }), weight: 1 },
  );

const lineArb: fc.Arbitrary<TotalsLine> = fc.record({
  productId: fc.integer({ min: 1, max: 60 }),
  unitPrice: mostlySmall(10000, 100000),
  qty: mostlySmall(3, 999),
  weightKg: kg,
  vatRate,
});

const couponArb: fc.Arbitrary<TotalsCoupon> = fc.oneof(
  fc.record({
    code: fc.constant('PCT'),
    type: fc.constant('percent' as const),
    value: fc.integer({ min: 0, max: 1000 }).map((v) => v / 10),
    minSubtotal: fc.oneof(fc.constant(0), cents(500000)),
    valid: fc.constant(true),
  }),
  fc.record({
    code: fc.constant('FIX'),
    type: fc.constant('fixed' as const),
    value: fc.integer({ min: 1, max: 200000 }),
    minSubtotal: fc.oneof(fc.constant(0), cents(500000)),
    valid: fc.constant(true),
  }),
);

const ruleArb: fc.Arbitrary<GiftRule | null> = fc.option(
  fc.record({
    active: fc.boolean(),
    minSubtotal: fc.oneof(fc.constant(0), cents(20000), cents(300000)),
    productIds: fc.array(fc.integer({ min: 1, max: 8 }), { maxLength: 5 }),
    maxQty: fc.integer({ min: 1, max: 5 }),
  }),
  { freq: 5 },
);

const giftArb: fc.Arbitrary<SelectedGift> = fc.record({
  giftId: fc.integer({ min: 1, max: 4 }),
  productId: fc.integer({ min: 1, max: 8 }),
  variantId: fc.option(fc.integer({ min: 1, max: 8 }), { freq: 5 }),
  qty: fc.integer({ min: 1, max: 6 }),
  unitPrice: fc.integer({ min: 1, max: 100000 }),
  weightKg: kg,
  rule: ruleArb,
});

const transportArb: fc.Arbitrary<TotalsTransport> = fc.record({
  price: cents(5000),
  freeShippingThreshold: fc.option(fc.oneof(cents(20000), cents(300000)), { freq: 3 }),
  includedWeightKg: kg,
  overweightPricePerKg: cents(1000),
  codFee: cents(1000),
});

const loyaltyArb: fc.Arbitrary<LoyaltyInput> = fc.record({
  enabled: fc.boolean(),
  isCustomer: fc.boolean(),
  balance: cents(1000000),
  spendPoints: fc.integer({ min: -1, max: 1000 }),
  rewardCashPerUnit: cents(2000),
});

const inputArb: fc.Arbitrary<TotalsInput> = fc.record(
  {
    lines: fc.array(lineArb, { maxLength: 20 }),
    coupon: fc.option(couponArb),
    selectedGifts: fc.array(giftArb, { maxLength: 4 }),
    transport: fc.option(transportArb, { freq: 4 }),
    payWay: fc.constantFrom('delivery' as const, 'card' as const, 'bank_transfer' as const),
    giftPackaging: fc.boolean(),
    giftPackagingPrice: cents(2000),
    loyalty: loyaltyArb,
    redeemPoints: fc.boolean(),
    shippingVatRate: vatRate,
  },
  { requiredKeys: ['lines'] },
);

function check(predicate: (t: TotalsResult, input: TotalsInput) => void): void {
  fc.assert(
    fc.property(inputArb, (input) => predicate(computeTotals(input), input)),
    runs,
  );
}

const moneyKeys = [
  'subtotal',
  'itemCount',
  'goods',
  'giftValue',
  'shippingCost',
  'overweightCost',
  'deliveryCost',
  'couponDiscount',
  'giftPackagingCost',
  'giftDiscount',
  'merchandise',
  'pointsSpend',
  'pointsCash',
  'payableBeforePoints',
  'total',
] as const;

describe(`computeTotals properties (FC_SEED=${seed})`, () => {
  test('when any cart is quoted, then total = payableBeforePoints − pointsCash', () => {
    check((t) => assert.equal(t.total, t.payableBeforePoints - t.pointsCash));
  });

  test('when any cart is quoted, then payableBeforePoints = merchandise + shipping + delivery + packaging', () => {
    check((t) =>
      assert.equal(
        t.payableBeforePoints,
        t.merchandise + t.shippingCost + t.deliveryCost + t.giftPackagingCost,
      ),
    );
  });

  test('when any cart is quoted, then 0 ≤ overweightCost ≤ shippingCost', () => {
    check((t) => {
      assert.ok(t.overweightCost >= 0);
      assert.ok(t.overweightCost <= t.shippingCost);
    });
  });

  test('when a valid coupon is added, then shipping never drops (and never becomes free)', () => {
    fc.assert(
      fc.property(inputArb, couponArb, (input, coupon) => {
        const without = computeTotals({ ...input, coupon: null });
        const withCoupon = computeTotals({ ...input, coupon });
        assert.ok(withCoupon.shippingCost >= without.shippingCost);
        if (without.shippingCost > 0) assert.ok(withCoupon.shippingCost > 0);
      }),
      runs,
    );
  });

  test('when any cart is quoted, then total ≥ 0 and pointsCash ≤ payableBeforePoints', () => {
    check((t) => {
      assert.ok(t.total >= 0);
      assert.ok(t.pointsCash >= 0);
      assert.ok(t.pointsCash <= t.payableBeforePoints);
    });
  });

  test('when any cart is quoted, then every figure is a safe integer and weight is whole grams', () => {
    check((t) => {
      for (const key of moneyKeys) assert.ok(Number.isSafeInteger(t[key]), `${key}: ${t[key]}`);
      for (const value of Object.values(t.loyalty)) {
        if (typeof value === 'number') assert.ok(Number.isSafeInteger(value));
      }
      for (const entry of t.vatBreakdown) {
        assert.ok([entry.net, entry.vat, entry.gross].every(Number.isSafeInteger));
      }
      const grams = t.weightKg * 1000;
      assert.ok(Math.abs(grams - Math.round(grams)) < 1e-6);
    });
  });

  test('when any cart is quoted, then Σ vat gross = total and net + vat = gross per rate', () => {
    check((t) => {
      assert.equal(
        t.vatBreakdown.reduce((sum, e) => sum + e.gross, 0),
        t.total,
      );
      for (const entry of t.vatBreakdown) {
        assert.equal(entry.net + entry.vat, entry.gross);
        assert.ok(entry.gross > 0 && entry.vat >= 0 && entry.net >= 0);
      }
      assert.equal(new Set(t.vatBreakdown.map((e) => e.rate)).size, t.vatBreakdown.length);
    });
  });

  test('when any cart is quoted, then 0 ≤ couponDiscount ≤ goods and merchandise ≥ 0', () => {
    check((t) => {
      assert.ok(t.couponDiscount >= 0);
      assert.ok(t.couponDiscount <= t.goods);
      assert.equal(t.merchandise, t.goods - t.couponDiscount);
      assert.ok(t.merchandise >= 0);
    });
  });

  test('when any cart is quoted, then gifts are free and counted in subtotal and itemCount', () => {
    check((t, input) => {
      assert.equal(t.giftDiscount, t.giftValue);
      assert.equal(t.subtotal, t.goods + t.giftValue);
      const giftQty = t.acceptedGifts.reduce((n, g) => n + g.qty, 0);
      assert.equal(t.itemCount, input.lines.reduce((n, l) => n + l.qty, 0) + giftQty);
      assert.equal(t.acceptedGifts.length + t.giftErrors.length, input.selectedGifts?.length ?? 0);
    });
  });

  test('when loyalty is redeemed, then whole units are spent and the cap holds', () => {
    check((t, input) => {
      const { spendPoints, rewardCashPerUnit } = t.loyalty;
      assert.ok(t.loyalty.redeemableCash <= t.payableBeforePoints);
      if (t.pointsSpend > 0) {
        assert.equal(input.redeemPoints, true);
        assert.equal(t.loyalty.canRedeem, true);
        assert.equal(t.pointsSpend / spendPoints, t.pointsCash / rewardCashPerUnit);
        assert.ok(t.pointsSpend <= t.loyalty.balance);
      }
      if (!input.loyalty?.isCustomer) assert.equal(t.loyalty.balance, 0);
    });
  });
});
