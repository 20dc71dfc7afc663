// Gift selection of the checkout quote: which selected gifts qualify, and what they add (for free).

import { assertCents, sumCents } from '../../lib/money.ts';
import { assertCount, toGrams } from './quantities.ts';

export interface GiftRule {
  active: boolean;
  /** Cents, compared with `goods`. */
  minSubtotal: number;
  productIds: readonly number[];
  maxQty: number;
}

export interface SelectedGift {
  giftId: number;
  productId: number;
  /** The variant given: the one chosen, or the product's only one; null when none could be named. */
  variantId: number | null;
  qty: number;
  /** Gross unit price of the gift product in cents: its value, never charged. */
  unitPrice: number;
  weightKg: number;
  /** null when the gift id is unknown. */
  rule: GiftRule | null;
}

export type GiftErrorReason =
  | 'GIFT_UNKNOWN'
  | 'GIFT_INACTIVE'
  | 'GIFT_CART_EMPTY'
  | 'GIFT_MIN_SUBTOTAL'
  | 'GIFT_PRODUCT_NOT_ELIGIBLE'
  | 'GIFT_VARIANT_REQUIRED'
  | 'GIFT_QTY_EXCEEDED';

export interface GiftError {
  giftId: number;
  productId: number;
  reason: GiftErrorReason;
}

export interface AcceptedGift {
  giftId: number;
  productId: number;
  variantId: number;
  qty: number;
  unitPrice: number;
  weightKg: number;
}

export interface GiftOutcome {
  accepted: AcceptedGift[];
  errors: GiftError[];
}

function giftRejection(
  gift: SelectedGift,
  goods: number,
  empty: boolean,
  used: number,
): GiftErrorReason | null {
  const rule = gift.rule;
  if (rule === null) return 'GIFT_UNKNOWN';
  if (!rule.active) return 'GIFT_INACTIVE';
  if (empty) return 'GIFT_CART_EMPTY';
  if (assertCents(rule.minSubtotal, 'gift minSubtotal') > goods) return 'GIFT_MIN_SUBTOTAL';
  if (!rule.productIds.includes(gift.productId)) return 'GIFT_PRODUCT_NOT_ELIGIBLE';
  if (gift.variantId === null) return 'GIFT_VARIANT_REQUIRED';
  if (used + gift.qty > rule.maxQty) return 'GIFT_QTY_EXCEEDED';
  return null;
}

/** Accepts gifts per their rule; `maxQty` bounds the sum of the quantities selected under one gift id. */
function evaluateGifts(gifts: readonly SelectedGift[], goods: number, empty: boolean): GiftOutcome {
  const outcome: GiftOutcome = { accepted: [], errors: [] };
  const usedByGift = new Map<number, number>();
  for (const gift of gifts) {
    assertCount(gift.qty, 'gift qty');
    assertCents(gift.unitPrice, 'gift unitPrice');
    const used = usedByGift.get(gift.giftId) ?? 0;
    const reason = giftRejection(gift, goods, empty, used);
    if (reason !== null) {
      outcome.errors.push({ giftId: gift.giftId, productId: gift.productId, reason });
      continue;
    }
    usedByGift.set(gift.giftId, used + gift.qty);
    const { giftId, productId, variantId, qty, unitPrice, weightKg } = gift;
    // biome-ignore lint/style/noNonNullAssertion: an accepted gift has its variant resolved above
    outcome.accepted.push({ giftId, productId, variantId: variantId!, qty, unitPrice, weightKg });
  }
  return outcome;
}

export interface GiftFigures extends GiftOutcome {
  value: number;
  grams: number;
  qty: number;
}

/** Accepted gifts with their total value, weight (grams) and quantity. */
export function priceGifts(gifts: readonly SelectedGift[], goods: number, empty: boolean): GiftFigures {
  const outcome = evaluateGifts(gifts, goods, empty);
  return {
    ...outcome,
    value: sumCents(
      outcome.accepted.map((g) => g.unitPrice * g.qty),
      'giftValue',
    ),
    grams: sumCents(
      outcome.accepted.map((g) => toGrams(g.weightKg, 'gift weightKg') * g.qty),
      'gift weight',
    ),
    qty: outcome.accepted.reduce((n, g) => n + g.qty, 0),
  };
}
