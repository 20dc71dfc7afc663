import { fromCents } from '../../lib/money.ts';
import type { TotalsJson } from './totals.schemas.ts';
import type { LoyaltySummary, TotalsResult } from './totals.ts';

// The HTTP edge of the quote: cents become JSON numbers with at most two decimals, here only.

/** The figures of the totals quote, in cents, as stored in an order's snapshot. */
export type TotalsFigures = Pick<
  TotalsResult,
  | 'subtotal'
  | 'itemCount'
  | 'shippingCost'
  | 'overweightCost'
  | 'deliveryCost'
  | 'couponDiscount'
  | 'promotionDiscount'
  | 'promotions'
  | 'giftPackagingCost'
  | 'giftDiscount'
  | 'pointsSpend'
  | 'pointsCash'
  | 'payableBeforePoints'
  | 'loyalty'
  | 'total'
> & { reverseChargeVat?: number };

export function figuresOf(t: TotalsResult): TotalsFigures {
  return {
    subtotal: t.subtotal,
    itemCount: t.itemCount,
    shippingCost: t.shippingCost,
    overweightCost: t.overweightCost,
    deliveryCost: t.deliveryCost,
    couponDiscount: t.couponDiscount,
    promotionDiscount: t.promotionDiscount,
    promotions: t.promotions,
    giftPackagingCost: t.giftPackagingCost,
    giftDiscount: t.giftDiscount,
    pointsSpend: t.pointsSpend,
    pointsCash: t.pointsCash,
    payableBeforePoints: t.payableBeforePoints,
    loyalty: t.loyalty,
    total: t.total,
    ...(t.reverseChargeVat || t.vatBreakdown.some((v) => v.reverseCharge)
      ? { reverseChargeVat: t.reverseChargeVat }
      : {}),
  };
}

function loyaltyJson(l: LoyaltySummary): TotalsJson['loyalty'] {
  return {
    ...l,
    rewardCashPerUnit: fromCents(l.rewardCashPerUnit),
    redeemableCash: fromCents(l.redeemableCash),
  };
}

/** Cents → decimals for every money figure; counts and points stay integers. */
export function figuresJson(
  f: TotalsFigures,
): Omit<TotalsJson, 'couponError' | 'giftErrors' | 'unavailableProducts' | 'vatIdError' | 'shippingZone'> {
  const json: Omit<TotalsJson, 'couponError' | 'giftErrors' | 'unavailableProducts'> = {
    subtotal: fromCents(f.subtotal),
    itemCount: f.itemCount,
    shippingCost: fromCents(f.shippingCost),
    overweightCost: fromCents(f.overweightCost),
    deliveryCost: fromCents(f.deliveryCost),
    // Orders placed before cart promotions existed carry neither figure.
    promotionDiscount: fromCents(f.promotionDiscount ?? 0),
    promotions: (f.promotions ?? []).map((p) => ({ id: p.id, name: p.name, amount: fromCents(p.amount) })),
    couponDiscount: fromCents(f.couponDiscount),
    giftPackagingCost: fromCents(f.giftPackagingCost),
    giftDiscount: fromCents(f.giftDiscount),
    pointsSpend: f.pointsSpend,
    pointsCash: fromCents(f.pointsCash),
    payableBeforePoints: fromCents(f.payableBeforePoints),
    loyalty: loyaltyJson(f.loyalty),
    total: fromCents(f.total),
  };
  if (f.reverseChargeVat !== undefined) json.reverseChargeVat = fromCents(f.reverseChargeVat);
  return json;
}

/** The totals answer: the figures, plus why a coupon, a gift or a cart line was left out. */
export function totalsJson(t: TotalsResult, unavailable: readonly number[]): TotalsJson {
  const json: TotalsJson = figuresJson(figuresOf(t));
  if (t.couponError) json.couponError = t.couponError;
  if (t.giftErrors.length) json.giftErrors = t.giftErrors.map((e) => ({ ...e }));
  if (unavailable.length) json.unavailableProducts = [...unavailable];
  return json;
}
