import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  computeTotals,
  type GiftRule,
  type LoyaltyInput,
  type SelectedGift,
  type TotalsCoupon,
  type TotalsInput,
  type TotalsLine,
  type TotalsTransport,
} from '../../src/modules/pricing/totals.ts';

// Hand-computed golden cases: every figure in integer cents.

const transport: TotalsTransport = {
  price: 490,
  freeShippingThreshold: 5000,
  includedWeightKg: 5,
  overweightPricePerKg: 100,
  codFee: 300,
};

function line(unitPrice: number, qty = 1, extra: Partial<TotalsLine> = {}): TotalsLine {
  return { productId: 1, unitPrice, qty, weightKg: 0, vatRate: 19, ...extra };
}

function percent(value: number, minSubtotal = 0): TotalsCoupon {
  return { code: 'PCT', type: 'percent', value, minSubtotal, valid: true };
}

function fixed(value: number, minSubtotal = 0): TotalsCoupon {
  return { code: 'FIX', type: 'fixed', value, minSubtotal, valid: true };
}

const rule: GiftRule = { active: true, minSubtotal: 2000, productIds: [50, 51], maxQty: 2 };

function gift(extra: Partial<SelectedGift> = {}): SelectedGift {
  return { giftId: 7, productId: 50, variantId: 50, qty: 1, unitPrice: 1500, weightKg: 0.5, rule, ...extra };
}

const customer: LoyaltyInput = {
  enabled: true,
  isCustomer: true,
  balance: 10000,
  spendPoints: 100,
  rewardCashPerUnit: 500,
};

function quote(input: Partial<TotalsInput>) {
  return computeTotals({ lines: [line(3000)], ...input });
}

describe('computeTotals: free shipping threshold', () => {
  test('when merchandise is exactly at the threshold, then shipping is free', () => {
    const t = quote({ lines: [line(2500, 2)], transport });
    assert.equal(t.merchandise, 5000);
    assert.equal(t.shippingCost, 0);
    assert.equal(t.total, 5000);
  });

  test('when merchandise is one cent under the threshold, then the shipping price is charged', () => {
    const t = quote({ lines: [line(4999)], transport });
    assert.equal(t.shippingCost, 490);
    assert.equal(t.payableBeforePoints, 5489);
    assert.equal(t.total, 5489);
  });

  test('when the threshold is null, then shipping is always charged', () => {
    const t = quote({ lines: [line(100000)], transport: { ...transport, freeShippingThreshold: null } });
    assert.equal(t.shippingCost, 490);
  });

  test('when a coupon takes goods above the threshold below it, then free shipping is lost', () => {
    const without = quote({ lines: [line(6000)], transport });
    assert.equal(without.shippingCost, 0);
    const t = quote({ lines: [line(6000)], transport, coupon: fixed(1500) });
    assert.equal(t.goods, 6000);
    assert.equal(t.couponDiscount, 1500);
    assert.equal(t.merchandise, 4500);
    assert.equal(t.shippingCost, 490);
    assert.equal(t.total, 4990);
  });

  test('when a coupon applies below the threshold, then it never earns free shipping', () => {
    const t = quote({ lines: [line(4000)], transport, coupon: percent(10) });
    assert.equal(t.couponDiscount, 400);
    assert.equal(t.merchandise, 3600);
    assert.equal(t.shippingCost, 490);
    assert.equal(t.total, 4090);
  });
});

describe('computeTotals: weight and overweight', () => {
  test('when the cart is 2.2 kg over the included weight, then 3 kg of overweight are inside shippingCost', () => {
    const t = quote({ lines: [line(1000, 2, { weightKg: 3.6 })], transport });
    assert.equal(t.weightKg, 7.2);
    assert.equal(t.overweightCost, 300);
    assert.equal(t.shippingCost, 790);
    assert.equal(t.total, 2790);
  });

  test('when shipping is free, then overweightCost is reported as 0', () => {
    const t = quote({ lines: [line(3000, 2, { weightKg: 3.6 })], transport });
    assert.equal(t.weightKg, 7.2);
    assert.equal(t.shippingCost, 0);
    assert.equal(t.overweightCost, 0);
  });

  test('when the weight is exactly the included weight, then there is no overweight', () => {
    const t = quote({ lines: [line(1000, 2, { weightKg: 2.5 })], transport });
    assert.equal(t.weightKg, 5);
    assert.equal(t.overweightCost, 0);
    assert.equal(t.shippingCost, 490);
  });

  test('when float weights sum to exactly the included weight, then grams keep it exact', () => {
    // 0.1 + 0.2 + 4.7 is 5.000000000000001 in floating point
    const lines = [
      line(100, 1, { weightKg: 0.1 }),
      line(100, 1, { weightKg: 0.2 }),
      line(100, 1, { weightKg: 4.7 }),
    ];
    const t = quote({ lines, transport });
    assert.equal(t.weightKg, 5);
    assert.equal(t.overweightCost, 0);
  });

  test('when the weight is one gram over the included weight, then a whole kilogram is charged', () => {
    const t = quote({ lines: [line(1000, 1, { weightKg: 5.001 })], transport });
    assert.equal(t.weightKg, 5.001);
    assert.equal(t.overweightCost, 100);
    assert.equal(t.shippingCost, 590);
  });

  test('when there is no transport, then shipping, overweight and delivery are 0', () => {
    const t = quote({ lines: [line(1000, 1, { weightKg: 40 })], payWay: 'delivery' });
    assert.equal(t.shippingCost, 0);
    assert.equal(t.overweightCost, 0);
    assert.equal(t.deliveryCost, 0);
    assert.equal(t.weightKg, 40);
    assert.equal(t.total, 1000);
  });
});

describe('computeTotals: delivery and gift packaging', () => {
  test('when paying cash on delivery with a transport, then the COD fee is added', () => {
    const t = quote({ lines: [line(1000)], transport, payWay: 'delivery' });
    assert.equal(t.deliveryCost, 300);
    assert.equal(t.payableBeforePoints, 1000 + 490 + 300);
  });

  test('when paying by card or bank transfer, then there is no delivery cost', () => {
    assert.equal(quote({ transport, payWay: 'card' }).deliveryCost, 0);
    assert.equal(quote({ transport, payWay: 'bank_transfer' }).deliveryCost, 0);
    assert.equal(quote({ transport }).deliveryCost, 0);
  });

  test('when gift packaging is requested, then its price is added on top', () => {
    const t = quote({
      lines: [line(6000)],
      transport,
      payWay: 'delivery',
      giftPackaging: true,
      giftPackagingPrice: 999,
    });
    assert.equal(t.giftPackagingCost, 999);
    assert.equal(t.shippingCost, 0);
    assert.equal(t.total, 6000 + 300 + 999);
    assert.equal(quote({ giftPackaging: false, giftPackagingPrice: 999 }).giftPackagingCost, 0);
  });
});

describe('computeTotals: coupons', () => {
  test('when a percent coupon gives a fraction of a cent, then it rounds half-up (15 % of 19.99 → 3.00)', () => {
    const t = quote({ lines: [line(1999)], coupon: percent(15) });
    assert.equal(t.couponDiscount, 300);
    assert.equal(t.merchandise, 1699);
    assert.equal(t.appliedCoupon, 'PCT');
    assert.equal(t.couponError, null);
  });

  test('when a percent coupon is fractional, then it is exact (12.5 % of 10.00 → 1.25)', () => {
    assert.equal(quote({ lines: [line(1000)], coupon: percent(12.5) }).couponDiscount, 125);
  });

  test('when a fixed coupon is larger than the goods, then the discount is capped at the goods', () => {
    const t = quote({ lines: [line(1200)], coupon: fixed(5000), transport });
    assert.equal(t.couponDiscount, 1200);
    assert.equal(t.merchandise, 0);
    assert.equal(t.shippingCost, 490);
    assert.equal(t.total, 490);
  });

  test('when the coupon minSubtotal is not met, then couponError is set and nothing is deducted', () => {
    const t = quote({ lines: [line(2999)], coupon: fixed(500, 3000) });
    assert.equal(t.couponDiscount, 0);
    assert.equal(t.appliedCoupon, null);
    assert.equal(t.couponError, 'COUPON_MIN_SUBTOTAL');
    assert.equal(t.total, 2999);
  });

  test('when the coupon minSubtotal is met exactly, then the coupon applies', () => {
    const t = quote({ lines: [line(3000)], coupon: fixed(500, 3000) });
    assert.equal(t.couponDiscount, 500);
    assert.equal(t.appliedCoupon, 'FIX');
  });

  test('when gifts are accepted, then the coupon minSubtotal and percent ignore their value', () => {
    const t = quote({ lines: [line(2000)], selectedGifts: [gift()], coupon: percent(10, 2500) });
    assert.equal(t.subtotal, 3500);
    assert.equal(t.couponError, 'COUPON_MIN_SUBTOTAL');
    assert.equal(
      quote({ lines: [line(2000)], selectedGifts: [gift()], coupon: percent(10) }).couponDiscount,
      200,
    );
  });

  test('when the caller marks the coupon invalid, then its error is reported and nothing is deducted', () => {
    const t = quote({ coupon: { ...fixed(500), valid: false, error: 'COUPON_EXPIRED' } });
    assert.equal(t.couponError, 'COUPON_EXPIRED');
    assert.equal(t.couponDiscount, 0);
    assert.equal(quote({ coupon: { ...fixed(500), valid: false } }).couponError, 'COUPON_INVALID');
  });
});

describe('computeTotals: gifts', () => {
  test('when a gift qualifies, then it is free, counted in items and weight, and merchandise is unaffected', () => {
    const t = quote({
      lines: [line(3000, 2, { weightKg: 1 })],
      selectedGifts: [gift({ qty: 2 })],
      transport,
    });
    assert.equal(t.goods, 6000);
    assert.equal(t.giftValue, 3000);
    assert.equal(t.giftDiscount, 3000);
    assert.equal(t.subtotal, 9000);
    assert.equal(t.merchandise, 6000);
    assert.equal(t.itemCount, 4);
    assert.equal(t.weightKg, 3);
    assert.equal(t.total, 6000);
    assert.deepEqual(t.acceptedGifts, [
      { giftId: 7, productId: 50, variantId: 50, qty: 2, unitPrice: 1500, weightKg: 0.5 },
    ]);
    assert.deepEqual(t.giftErrors, []);
  });

  test('when a gift pushes the weight over the included weight, then its weight is charged as overweight', () => {
    const t = quote({ lines: [line(2000, 1, { weightKg: 4.8 })], selectedGifts: [gift()], transport });
    assert.equal(t.weightKg, 5.3);
    assert.equal(t.overweightCost, 100);
  });

  test('when gifts do not qualify, then each is left out with its reason', () => {
    const t = quote({
      lines: [line(3000)],
      selectedGifts: [
        gift({ giftId: 1, rule: null }),
        gift({ giftId: 2, rule: { ...rule, active: false } }),
        gift({ giftId: 3, rule: { ...rule, minSubtotal: 3001 } }),
        gift({ giftId: 4, productId: 99 }),
        gift({ giftId: 5, qty: 3 }),
        gift({ giftId: 6, rule: { ...rule, minSubtotal: 3000 } }),
      ],
    });
    assert.deepEqual(t.giftErrors, [
      { giftId: 1, productId: 50, reason: 'GIFT_UNKNOWN' },
      { giftId: 2, productId: 50, reason: 'GIFT_INACTIVE' },
      { giftId: 3, productId: 50, reason: 'GIFT_MIN_SUBTOTAL' },
      { giftId: 4, productId: 99, reason: 'GIFT_PRODUCT_NOT_ELIGIBLE' },
      { giftId: 5, productId: 50, reason: 'GIFT_QTY_EXCEEDED' },
    ]);
    assert.deepEqual(
      t.acceptedGifts.map((g) => g.giftId),
      [6],
    );
    assert.equal(t.giftValue, 1500);
    assert.equal(t.itemCount, 2);
  });

  test('when one gift id is selected twice beyond maxQty, then the entry that exceeds it is refused', () => {
    const t = quote({ selectedGifts: [gift({ qty: 1 }), gift({ productId: 51, qty: 2 }), gift({ qty: 1 })] });
    assert.deepEqual(
      t.acceptedGifts.map((g) => g.qty),
      [1, 1],
    );
    assert.deepEqual(t.giftErrors, [{ giftId: 7, productId: 51, reason: 'GIFT_QTY_EXCEEDED' }]);
  });
});

describe('computeTotals: loyalty', () => {
  test('when the balance is worth more than payable, then units are capped and wouldExceed is true', () => {
    // 100 units × 5.00 = 500.00 > 123.45 payable → 24 units (120.00)
    const t = quote({ lines: [line(12345)], loyalty: customer, redeemPoints: true });
    assert.deepEqual(t.loyalty, {
      pointSystemEnabled: true,
      spendPoints: 100,
      rewardCashPerUnit: 500,
      balance: 10000,
      redeemablePoints: 2400,
      redeemableCash: 12000,
      canRedeem: true,
      wouldExceed: true,
    });
    assert.equal(t.pointsSpend, 2400);
    assert.equal(t.pointsCash, 12000);
    assert.equal(t.payableBeforePoints, 12345);
    assert.equal(t.total, 345);
  });

  test('when the balance is worth less than payable, then every whole unit is redeemable', () => {
    const t = quote({ lines: [line(12345)], loyalty: { ...customer, balance: 1050 }, redeemPoints: true });
    assert.equal(t.loyalty.redeemablePoints, 1000);
    assert.equal(t.loyalty.redeemableCash, 5000);
    assert.equal(t.loyalty.wouldExceed, false);
    assert.equal(t.total, 7345);
  });

  test('when redeemPoints is not asked, then the decision is reported but nothing is spent', () => {
    const t = quote({ lines: [line(12345)], loyalty: customer });
    assert.equal(t.loyalty.canRedeem, true);
    assert.equal(t.pointsSpend, 0);
    assert.equal(t.pointsCash, 0);
    assert.equal(t.total, 12345);
  });

  test('when the caller is a guest, then balance and redeemable are 0 and nothing can be redeemed', () => {
    const t = quote({
      lines: [line(12345)],
      loyalty: { ...customer, isCustomer: false },
      redeemPoints: true,
    });
    assert.deepEqual(t.loyalty, {
      pointSystemEnabled: true,
      spendPoints: 100,
      rewardCashPerUnit: 500,
      balance: 0,
      redeemablePoints: 0,
      redeemableCash: 0,
      canRedeem: false,
      wouldExceed: false,
    });
    assert.equal(t.pointsCash, 0);
    assert.equal(t.total, 12345);
  });

  test('when redeemPoints is asked but canRedeem is false, then pointsSpend and pointsCash are 0', () => {
    const disabled = quote({ loyalty: { ...customer, enabled: false }, redeemPoints: true });
    assert.equal(disabled.loyalty.canRedeem, false);
    assert.equal(disabled.loyalty.redeemablePoints, 600);
    assert.equal(disabled.pointsSpend, 0);
    assert.equal(disabled.pointsCash, 0);
    assert.equal(disabled.total, 3000);
    const poor = quote({ loyalty: { ...customer, balance: 99 }, redeemPoints: true });
    assert.equal(poor.loyalty.canRedeem, false);
    assert.equal(poor.pointsCash, 0);
    const cheap = quote({ lines: [line(499)], loyalty: customer, redeemPoints: true });
    assert.equal(cheap.loyalty.canRedeem, false);
    assert.equal(cheap.loyalty.wouldExceed, true);
    assert.equal(cheap.total, 499);
  });

  test('when spendPoints or rewardCashPerUnit is not positive, then loyalty is unusable', () => {
    for (const loyalty of [
      { ...customer, spendPoints: 0 },
      { ...customer, spendPoints: -5 },
      { ...customer, rewardCashPerUnit: 0 },
    ]) {
      const t = quote({ loyalty, redeemPoints: true });
      assert.equal(t.loyalty.canRedeem, false);
      assert.equal(t.loyalty.redeemablePoints, 0);
      assert.equal(t.loyalty.wouldExceed, false);
      assert.equal(t.pointsSpend, 0);
    }
  });

  test('when points pay for shipping, delivery and packaging too, then the cap includes them', () => {
    const t = quote({
      lines: [line(1000)],
      transport,
      payWay: 'delivery',
      giftPackaging: true,
      giftPackagingPrice: 210,
      loyalty: customer,
      redeemPoints: true,
    });
    assert.equal(t.payableBeforePoints, 2000);
    assert.equal(t.pointsCash, 2000);
    assert.equal(t.pointsSpend, 400);
    assert.equal(t.total, 0);
  });
});

describe('computeTotals: empty cart', () => {
  test('when the cart is empty, then every figure is 0 whatever else is asked', () => {
    const t = computeTotals({
      lines: [],
      transport,
      payWay: 'delivery',
      giftPackaging: true,
      giftPackagingPrice: 999,
      selectedGifts: [gift({ rule: { ...rule, minSubtotal: 0 } })],
      loyalty: customer,
      redeemPoints: true,
    });
    for (const key of [
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
      'weightKg',
      'pointsSpend',
      'pointsCash',
      'payableBeforePoints',
      'total',
    ] as const) {
      assert.equal(t[key], 0, key);
    }
    assert.equal(t.loyalty.redeemableCash, 0);
    assert.equal(t.loyalty.canRedeem, false);
    assert.deepEqual(t.vatBreakdown, []);
    assert.deepEqual(t.giftErrors, [{ giftId: 7, productId: 50, reason: 'GIFT_CART_EMPTY' }]);
  });

  test('when no options are given at all, then the quote is all zeros with no coupon or errors', () => {
    const t = computeTotals({ lines: [] });
    assert.equal(t.total, 0);
    assert.equal(t.appliedCoupon, null);
    assert.equal(t.couponError, null);
    assert.deepEqual(t.loyalty, {
      pointSystemEnabled: false,
      spendPoints: 0,
      rewardCashPerUnit: 0,
      balance: 0,
      redeemablePoints: 0,
      redeemableCash: 0,
      canRedeem: false,
      wouldExceed: false,
    });
  });
});

describe('computeTotals: VAT breakdown', () => {
  const mixed = [line(11900, 1, { vatRate: 19 }), line(1070, 5, { productId: 2, vatRate: 7 })];
  const flat = { ...transport, freeShippingThreshold: null };

  test('when lines carry 19 % and 7 %, then the coupon is spread by goods and shipping goes to 19 %', () => {
    // coupon 17.25 over 119.00 / 53.50 → 11.90 / 5.35; shipping 4.90 at 19 %
    const t = computeTotals({ lines: mixed, coupon: fixed(1725), transport: flat });
    assert.equal(t.total, 16015);
    assert.deepEqual(t.vatBreakdown, [
      { rate: 7, net: 4500, vat: 315, gross: 4815 },
      { rate: 19, net: 9412, vat: 1788, gross: 11200 },
    ]);
  });

  test('when points are redeemed, then their cash is spread over the rates by largest remainder', () => {
    // points 15.00 over 112.00 / 48.15: 10.4899 → 10.49, 4.5098 → 4.51 (the larger remainder takes the cent)
    const t = computeTotals({
      lines: mixed,
      coupon: fixed(1725),
      transport: flat,
      loyalty: { ...customer, balance: 300 },
      redeemPoints: true,
    });
    assert.equal(t.pointsCash, 1500);
    assert.equal(t.total, 14515);
    assert.deepEqual(t.vatBreakdown, [
      { rate: 7, net: 4079, vat: 285, gross: 4364 },
      { rate: 19, net: 8530, vat: 1621, gross: 10151 },
    ]);
  });

  test('when shippingVatRate is given, then shipping, delivery and packaging are taxed at it', () => {
    const t = computeTotals({
      lines: mixed,
      transport: flat,
      payWay: 'delivery',
      giftPackaging: true,
      giftPackagingPrice: 210,
      shippingVatRate: 7,
    });
    // 7 %: 53.50 + 4.90 + 3.00 + 2.10 = 63.50 → vat 4.15 (4.1542); 19 %: 119.00 → vat 19.00
    assert.deepEqual(t.vatBreakdown, [
      { rate: 7, net: 5935, vat: 415, gross: 6350 },
      { rate: 19, net: 10000, vat: 1900, gross: 11900 },
    ]);
    assert.equal(t.total, 18250);
  });

  test('when a whole rate is discounted away, then it is left out of the breakdown', () => {
    const t = computeTotals({ lines: [line(500, 1, { vatRate: 7 })], coupon: fixed(500), transport: flat });
    assert.deepEqual(t.vatBreakdown, [{ rate: 7, net: 458, vat: 32, gross: 490 }]);
  });
});

describe('computeTotals: input guards', () => {
  test('when a price is not whole cents or a quantity is fractional, then it throws a RangeError', () => {
    assert.throws(() => computeTotals({ lines: [line(19.99)] }), RangeError);
    assert.throws(() => computeTotals({ lines: [line(100, 1.5)] }), RangeError);
    assert.throws(() => computeTotals({ lines: [line(100, -1)] }), RangeError);
    assert.throws(() => computeTotals({ lines: [line(100, 1, { weightKg: -1 })] }), RangeError);
    assert.throws(() => quote({ transport: { ...transport, price: 4.9 } }), RangeError);
  });
});
