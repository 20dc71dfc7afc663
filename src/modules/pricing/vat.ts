import { allocate, vatFromGross } from '../../lib/money.ts';

/** One VAT rate of what is charged: net + vat = gross, in cents. */
export interface VatBreakdownEntry {
  rate: number;
  net: number;
  vat: number;
  gross: number;
  /** Set on the one rate-0 entry of a reverse-charged order (docs/shipping-and-tax.md). */
  reverseCharge?: true;
}

export interface VatBreakdownInput {
  /** Gross goods per VAT rate, before any discount (cents). */
  goodsByRate: ReadonlyMap<number, number>;
  couponDiscount: number;
  /** Shipping + delivery + gift packaging (cents), all taxed at `surchargeRate`. */
  surcharge: number;
  surchargeRate: number | null;
  pointsCash: number;
}

/**
 * Splits the charged total by VAT rate. The coupon is spread over the rates in proportion to their goods,
 * then the surcharge is added to its rate, then the points cash is spread in proportion to what each rate
 * then carries; both spreads use the largest-remainder method, so Σ gross equals the total exactly and no
 * rate goes negative. Rates whose gross ends at 0 are left out. Sorted by rate, ascending.
 */
export function vatBreakdown(input: VatBreakdownInput): VatBreakdownEntry[] {
  const rates = [...input.goodsByRate.keys()];
  const goods = rates.map((rate) => input.goodsByRate.get(rate) ?? 0);
  const coupon = allocate(input.couponDiscount, goods);
  const gross = goods.map((g, i) => g - coupon[i]);
  if (input.surcharge !== 0) {
    if (input.surchargeRate === null) throw new RangeError('vatBreakdown: a surcharge needs a VAT rate');
    const at = rates.indexOf(input.surchargeRate);
    if (at >= 0) gross[at] += input.surcharge;
    else {
      rates.push(input.surchargeRate);
      gross.push(input.surcharge);
    }
  }
  const points = allocate(input.pointsCash, gross);
  return rates
    .map((rate, i) => ({ rate, ...vatFromGross(gross[i] - points[i], rate) }))
    .filter((entry) => entry.gross !== 0)
    .sort((a, b) => a.rate - b.rate);
}
