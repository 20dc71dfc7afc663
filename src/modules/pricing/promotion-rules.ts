// Cart promotions as plain data and pure functions (docs/promotions.md): which lines a promotion's
// conditions select, what its action takes off, and how every discount is spread over the lines in
// integer cents (largest remainder), so the quote, the order's lines, returns and the VAT breakdown
// all see the same cents. No SQL, no HTTP.

import { allocate, assertCents, percentOf, toCents } from '../../lib/money.ts';

/** What a promotion's lines must be, and what the cart must reach. Money as the API writes it (decimals). */
export interface PromotionConditions {
  categoryIds?: number[];
  productIds?: number[];
  brands?: string[];
  minSubtotal?: number;
  minQty?: number;
  customersOnly?: boolean;
}

export type PromotionAction =
  | { type: 'percent'; value: number }
  | { type: 'fixed'; value: number }
  | { type: 'buy_x_get_y'; buyQty: number; getQty: number; percent: number }
  | { type: 'tiered'; tiers: { minSubtotal: number; percent: number }[] };

export interface CartPromotion {
  id: number;
  name: string;
  conditions: PromotionConditions;
  action: PromotionAction;
  priority: number;
  exclusive: boolean;
  combinesWithCoupons: boolean;
}

/** A cart line as the rules read it: its product's category (with the categories above it) and brand. */
export interface PromotionLine {
  productId: number;
  /** The product's category and every category above it; empty without a category. */
  categoryPath: readonly number[];
  brand: string | null;
  /** Gross unit price in cents (catalog promotions already applied). */
  unitPrice: number;
  qty: number;
}

export interface AppliedPromotion {
  id: number;
  name: string;
  /** Cents taken off by this promotion. */
  amount: number;
  /** Its cents per line, in the order of the lines given; sums to `amount`. */
  lines: number[];
}

export interface PromotionOutcome {
  /** Σ amount of the applied promotions. */
  discount: number;
  applied: AppliedPromotion[];
  /** Every promotion's cents per line, summed; never above the line's total. */
  perLine: number[];
  /** An applied promotion does not combine with coupons: the cart's coupon is left out. */
  couponBlocked: boolean;
}

/** Whether a line is one the promotion's product conditions select (every given list must match). */
export function lineQualifies(c: PromotionConditions, line: PromotionLine): boolean {
  if (c.productIds?.length && !c.productIds.includes(line.productId)) return false;
  if (c.categoryIds?.length && !line.categoryPath.some((id) => c.categoryIds?.includes(id))) return false;
  if (c.brands?.length && (line.brand === null || !c.brands.includes(line.brand))) return false;
  return true;
}

/** Cents of the cheapest `k` units of a line whose `qty` units are worth `value` cents together. */
function cheapestUnits(value: number, qty: number, k: number): number {
  const base = Math.floor(value / qty);
  const dearer = value % qty; // units worth base + 1
  return k * base + Math.max(0, k - (qty - dearer));
}

/** buy_x_get_y: of every buyQty + getQty qualifying units, the getQty cheapest are discounted. */
function buyGetShares(
  action: Extract<PromotionAction, { type: 'buy_x_get_y' }>,
  lines: readonly { index: number; value: number; qty: number }[],
): Map<number, number> {
  const units = lines.reduce((n, l) => n + l.qty, 0);
  let free = Math.floor(units / (action.buyQty + action.getQty)) * action.getQty;
  const shares = new Map<number, number>();
  const cheapestFirst = [...lines].sort((a, b) => a.value * b.qty - b.value * a.qty || a.index - b.index);
  for (const line of cheapestFirst) {
    if (free === 0) break;
    const k = Math.min(free, line.qty);
    free -= k;
    shares.set(line.index, percentOf(cheapestUnits(line.value, line.qty, k), action.percent));
  }
  return shares;
}

/** The percent of the highest tier the subtotal reaches, or null below the first. */
function tierPercent(action: Extract<PromotionAction, { type: 'tiered' }>, subtotal: number): number | null {
  let best: { min: number; percent: number } | null = null;
  for (const tier of action.tiers) {
    const min = toCents(tier.minSubtotal);
    if (min <= subtotal && (best === null || min > best.min)) best = { min, percent: tier.percent };
  }
  return best?.percent ?? null;
}

/** The cents a promotion takes off each selected line, given what is left of each line. */
function sharesOf(
  action: PromotionAction,
  selected: readonly { index: number; value: number; qty: number }[],
  subtotal: number,
): number[] {
  const weights = selected.map((l) => l.value);
  if (action.type === 'buy_x_get_y') {
    const shares = buyGetShares(action, selected);
    return selected.map((l) => shares.get(l.index) ?? 0);
  }
  let total: number;
  if (action.type === 'fixed') total = Math.min(toCents(action.value), subtotal);
  else {
    const percent = action.type === 'percent' ? action.value : tierPercent(action, subtotal);
    if (percent === null) return selected.map(() => 0);
    total = Math.min(percentOf(subtotal, percent), subtotal);
  }
  return allocate(total, weights);
}

/**
 * Applies the cart promotions in priority order (higher first, then by id) over what each line is
 * still worth: each one's conditions read the lines it selects after the promotions before it, and
 * an exclusive promotion that applies stops every promotion of lower priority. A share never exceeds
 * what is left of its line, so no line and no total goes below zero.
 */
export function applyCartPromotions(
  promotions: readonly CartPromotion[],
  lines: readonly PromotionLine[],
  isCustomer: boolean,
): PromotionOutcome {
  const left = lines.map((l) => assertCents(l.unitPrice * l.qty, 'line total'));
  const perLine = lines.map(() => 0);
  const applied: AppliedPromotion[] = [];
  let stopBelow: number | null = null;
  let couponBlocked = false;
  const ordered = [...promotions].sort((a, b) => b.priority - a.priority || a.id - b.id);
  for (const promotion of ordered) {
    if (stopBelow !== null && promotion.priority < stopBelow) break;
    const c = promotion.conditions;
    if (c.customersOnly && !isCustomer) continue;
    // The lines it selects, with what is left of each (one pass: the quote runs this per request).
    const selected: { index: number; value: number; qty: number }[] = [];
    let subtotal = 0;
    let qty = 0;
    for (let index = 0; index < lines.length; index++) {
      const line = lines[index];
      if (line.qty <= 0 || !lineQualifies(c, line)) continue;
      selected.push({ index, value: left[index], qty: line.qty });
      subtotal += left[index];
      qty += line.qty;
    }
    if (selected.length === 0 || subtotal === 0) continue;
    if (c.minSubtotal !== undefined && toCents(c.minSubtotal) > subtotal) continue;
    if (c.minQty !== undefined && c.minQty > qty) continue;
    const shares = sharesOf(promotion.action, selected, subtotal);
    if (shares.every((n) => n === 0)) continue;
    const byLine = lines.map(() => 0);
    let amount = 0;
    selected.forEach((l, i) => {
      const share = Math.min(shares[i], left[l.index]);
      byLine[l.index] = share;
      left[l.index] -= share;
      perLine[l.index] += share;
      amount += share;
    });
    applied.push({ id: promotion.id, name: promotion.name, amount, lines: byLine });
    if (!promotion.combinesWithCoupons) couponBlocked = true;
    if (promotion.exclusive) stopBelow = promotion.priority;
  }
  return {
    discount: applied.reduce((s, p) => s + p.amount, 0),
    applied,
    perLine,
    couponBlocked,
  };
}

export const NO_PROMOTIONS: PromotionOutcome = { discount: 0, applied: [], perLine: [], couponBlocked: false };
