// The checkout quote (docs/checkout.md) as one pure function over integer cents: no HTTP, no database.
// The caller loads products, coupon, gift rules, transport and settings, checks what needs the database
// (coupon dates and usage, transport existence) and converts the cents to decimals at the edge.

import { assertCents, percentOf, sumCents } from '../../lib/money.ts';
import { type AcceptedGift, type GiftError, priceGifts, type SelectedGift } from './gifts.ts';
import {
  type AppliedPromotion,
  applyCartPromotions,
  type CartPromotion,
  NO_PROMOTIONS,
  type PromotionOutcome,
} from './promotion-rules.ts';
import { computeLoyalty, type LoyaltyInput, type LoyaltySummary, NO_LOYALTY } from './points.ts';
import { assertCount, toGrams } from './quantities.ts';
import { type VatBreakdownEntry, vatBreakdown } from './vat.ts';
import { bandCost, startedKg, type WeightBand } from './weight-bands.ts';
import { reverseCharge } from './reverse-charge.ts';

export type { LoyaltyInput, LoyaltySummary } from './points.ts';
export type { VatBreakdownEntry } from './vat.ts';
export type { AcceptedGift, GiftError, GiftErrorReason, GiftRule, SelectedGift } from './gifts.ts';

export type PayWay = 'delivery' | 'card' | 'bank_transfer';

export interface TotalsLine {
  productId: number;
  /** Gross unit price in cents. */
  unitPrice: number;
  qty: number;
  /** Product weight in kg; fractional, counted to the gram. */
  weightKg: number;
  /** VAT percent, e.g. 19 or 5.5. */
  vatRate: number;
  /** For cart promotions' conditions: the product's category and those above it, and its brand. */
  categoryPath?: readonly number[];
  brand?: string | null;
}

export interface TotalsCoupon {
  code: string;
  type: 'percent' | 'fixed';
  /** A percent (may be fractional) for 'percent', cents for 'fixed'. */
  value: number;
  /** Cents; 0 when the coupon has no minimum. */
  minSubtotal: number;
  /** The caller's database checks (active, dates, usage limits). false → left out with `error`. */
  valid: boolean;
  /** couponError to report when `valid` is false; defaults to 'COUPON_INVALID'. */
  error?: string;
}

export interface TotalsTransport {
  price: number;
  freeShippingThreshold: number | null;
  includedWeightKg: number;
  overweightPricePerKg: number;
  codFee: number;
  /** A zone's rate: ascending bands replace price and includedWeightKg (docs/shipping-and-tax.md). */
  weightBands?: readonly WeightBand[];
}

export interface TotalsInput {
  lines: readonly TotalsLine[];
  coupon?: TotalsCoupon | null;
  selectedGifts?: readonly SelectedGift[];
  transport?: TotalsTransport | null;
  payWay?: PayWay;
  giftPackaging?: boolean;
  giftPackagingPrice?: number;
  loyalty?: LoyaltyInput;
  redeemPoints?: boolean;
  /** VAT rate of shipping, delivery and packaging; defaults to the highest rate among the lines. */
  shippingVatRate?: number;
  /** A business buyer of another EU country: the VAT of every rate is not charged. */
  reverseCharge?: boolean;
  /** The cart promotions running now (docs/promotions.md); applied before the coupon. */
  cartPromotions?: readonly CartPromotion[];
  /** Whether the buyer is a signed-in customer (promotions for customers only). */
  isCustomer?: boolean;
}

/** Every money figure in cents; `weightKg` in kg (exact to the gram). */
export interface TotalsResult {
  subtotal: number;
  itemCount: number;
  goods: number;
  giftValue: number;
  shippingCost: number;
  overweightCost: number;
  deliveryCost: number;
  couponDiscount: number;
  /** Σ of the cart promotions applied, taken off before the coupon. */
  promotionDiscount: number;
  promotions: AppliedPromotion[];
  giftPackagingCost: number;
  giftDiscount: number;
  merchandise: number;
  weightKg: number;
  pointsSpend: number;
  pointsCash: number;
  payableBeforePoints: number;
  total: number;
  /** The VAT not charged under the reverse charge (0 otherwise); total is net of it. */
  reverseChargeVat: number;
  loyalty: LoyaltySummary;
  appliedCoupon: string | null;
  couponError: string | null;
  acceptedGifts: AcceptedGift[];
  giftErrors: GiftError[];
  vatBreakdown: VatBreakdownEntry[];
}

interface CouponOutcome {
  appliedCoupon: string | null;
  couponError: string | null;
  couponDiscount: number;
}

/**
 * The coupon comes off the goods (gifts excluded) after the cart promotions, never below zero; a
 * promotion that does not combine with coupons leaves it out.
 */
function applyCoupon(coupon: TotalsCoupon | null, goods: number, blocked: boolean): CouponOutcome {
  if (coupon === null) return { appliedCoupon: null, couponError: null, couponDiscount: 0 };
  if (!coupon.valid) {
    return { appliedCoupon: null, couponError: coupon.error ?? 'COUPON_INVALID', couponDiscount: 0 };
  }
  if (blocked) return { appliedCoupon: null, couponError: 'COUPON_NOT_COMBINABLE', couponDiscount: 0 };
  if (assertCents(coupon.minSubtotal, 'coupon minSubtotal') > goods) {
    return { appliedCoupon: null, couponError: 'COUPON_MIN_SUBTOTAL', couponDiscount: 0 };
  }
  const raw =
    coupon.type === 'percent' ? percentOf(goods, coupon.value) : assertCents(coupon.value, 'coupon value');
  return { appliedCoupon: coupon.code, couponError: null, couponDiscount: Math.min(goods, Math.max(0, raw)) };
}

interface ShippingOutcome {
  shippingCost: number;
  overweightCost: number;
}

/** Free shipping is judged on the merchandise AFTER the coupon, so a coupon can lose it, never earn it. */
function computeShipping(
  transport: TotalsTransport | null,
  merchandise: number,
  grams: number,
): ShippingOutcome {
  if (transport === null) return { shippingCost: 0, overweightCost: 0 };
  const threshold = transport.freeShippingThreshold;
  if (threshold !== null && merchandise >= assertCents(threshold, 'freeShippingThreshold')) {
    return { shippingCost: 0, overweightCost: 0 };
  }
  if (transport.weightBands?.length) {
    const band = bandCost(transport.weightBands, grams, assertCents(transport.overweightPricePerKg));
    return { shippingCost: band.cost, overweightCost: band.overweight };
  }
  const excess = Math.max(0, grams - toGrams(transport.includedWeightKg, 'includedWeightKg'));
  const extraKg = startedKg(excess);
  const overweightCost = assertCents(extraKg * assertCents(transport.overweightPricePerKg), 'overweightCost');
  return {
    shippingCost: assertCents(assertCents(transport.price) + overweightCost, 'shippingCost'),
    overweightCost,
  };
}

interface CartFigures {
  goods: number;
  grams: number;
  qty: number;
  goodsByRate: Map<number, number>;
}

/** The goods and weight of the lines; `goodsByRate` holds each line less its promotions' share. */
function sumLines(lines: readonly TotalsLine[], promotionShares: readonly number[]): CartFigures {
  const figures: CartFigures = { goods: 0, grams: 0, qty: 0, goodsByRate: new Map() };
  for (const [index, line] of lines.entries()) {
    const lineTotal = assertCents(assertCents(line.unitPrice, 'unitPrice') * assertCount(line.qty, 'qty'));
    const afterPromotions = lineTotal - (promotionShares[index] ?? 0);
    figures.goods = sumCents([figures.goods, lineTotal], 'goods');
    figures.grams = sumCents([figures.grams, toGrams(line.weightKg, 'weightKg') * line.qty], 'weight');
    figures.qty += line.qty;
    if (line.qty > 0) {
      figures.goodsByRate.set(line.vatRate, (figures.goodsByRate.get(line.vatRate) ?? 0) + afterPromotions);
    }
  }
  return figures;
}

function highestRate(rates: Iterable<number>): number | null {
  let best: number | null = null;
  for (const rate of rates) if (best === null || rate > best) best = rate;
  return best;
}

interface Charges extends ShippingOutcome {
  deliveryCost: number;
  giftPackagingCost: number;
}

/** What is charged on top of the merchandise; an empty cart is charged nothing at all. */
function computeCharges(input: TotalsInput, merchandise: number, grams: number, empty: boolean): Charges {
  const transport = empty ? null : (input.transport ?? null);
  const shipping = computeShipping(transport, merchandise, grams);
  const deliveryCost = transport !== null && input.payWay === 'delivery' ? assertCents(transport.codFee) : 0;
  const giftPackagingCost = input.giftPackaging && !empty ? assertCents(input.giftPackagingPrice ?? 0) : 0;
  return { ...shipping, deliveryCost, giftPackagingCost };
}

/**
 * Computes the checkout quote from plain data in cents. A cart without any
 * quantity is empty: every figure is 0 (no shipping, delivery or packaging) and gifts are refused.
 * VAT choice: shipping, delivery and packaging are taxed at `shippingVatRate`, by default the highest
 * rate among the lines (the "main service" rule; it never under-declares VAT on a mixed cart).
 */
function promotionsOf(input: TotalsInput): PromotionOutcome {
  if (!input.cartPromotions?.length) return NO_PROMOTIONS;
  const lines = input.lines.map((l) => ({
    productId: l.productId,
    categoryPath: l.categoryPath ?? [],
    brand: l.brand ?? null,
    unitPrice: l.unitPrice,
    qty: l.qty,
  }));
  return applyCartPromotions(input.cartPromotions, lines, input.isCustomer === true);
}

export function computeTotals(input: TotalsInput): TotalsResult {
  const promotions = promotionsOf(input);
  const cart = sumLines(input.lines, promotions.perLine);
  const empty = cart.qty === 0;
  const gifts = priceGifts(input.selectedGifts ?? [], cart.goods, empty);
  const afterPromotions = cart.goods - promotions.discount;
  const coupon = applyCoupon(input.coupon ?? null, afterPromotions, promotions.couponBlocked);
  const merchandise = afterPromotions - coupon.couponDiscount;
  const grams = cart.grams + gifts.grams;
  const charges = computeCharges(input, merchandise, grams, empty);
  const surcharge = charges.shippingCost + charges.deliveryCost + charges.giftPackagingCost;
  const payableBeforePoints = sumCents([merchandise, surcharge], 'payableBeforePoints');
  const loyalty = computeLoyalty(input.loyalty ?? NO_LOYALTY, payableBeforePoints);
  const redeem = input.redeemPoints === true && loyalty.canRedeem;
  const pointsCash = redeem ? loyalty.redeemableCash : 0;
  const vat = vatBreakdown({
    goodsByRate: cart.goodsByRate,
    couponDiscount: coupon.couponDiscount,
    surcharge,
    surchargeRate: input.shippingVatRate ?? highestRate(cart.goodsByRate.keys()),
    pointsCash,
  });
  const reversed = input.reverseCharge ? reverseCharge(vat) : { reverseChargeVat: 0, vatBreakdown: vat };
  return {
    subtotal: sumCents([cart.goods, gifts.value], 'subtotal'),
    itemCount: cart.qty + gifts.qty,
    goods: cart.goods,
    giftValue: gifts.value,
    ...charges,
    couponDiscount: coupon.couponDiscount,
    promotionDiscount: promotions.discount,
    promotions: promotions.applied,
    giftDiscount: gifts.value,
    merchandise,
    weightKg: grams / 1000,
    pointsSpend: redeem ? loyalty.redeemablePoints : 0,
    pointsCash,
    payableBeforePoints,
    total: payableBeforePoints - pointsCash - reversed.reverseChargeVat,
    reverseChargeVat: reversed.reverseChargeVat,
    loyalty,
    appliedCoupon: coupon.appliedCoupon,
    couponError: coupon.couponError,
    acceptedGifts: gifts.accepted,
    giftErrors: gifts.errors,
    vatBreakdown: reversed.vatBreakdown,
  };
}
