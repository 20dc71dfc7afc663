import type { PromotionAction, PromotionConditions } from '../pricing/promotion-rules.ts';

// What a promotion must be, beyond its schema, as plain checks over plain data (docs/promotions.md).
// Each problem names the field, as the 400's details do.

export interface PromotionDraft {
  kind: 'catalog' | 'cart';
  conditions: PromotionConditions;
  action: PromotionAction;
  startsAt: Date | null;
  endsAt: Date | null;
}

export interface FieldProblem {
  field: string;
  message: string;
}

function actionProblems(kind: PromotionDraft['kind'], action: PromotionAction): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (action.type === 'percent' && (action.value < 0 || action.value > 100)) {
    problems.push({ field: 'action.value', message: 'a percent is between 0 and 100' });
  }
  if (action.type === 'tiered') {
    const mins = action.tiers.map((t) => t.minSubtotal);
    if (new Set(mins).size !== mins.length) {
      problems.push({ field: 'action.tiers', message: 'two tiers have the same minSubtotal' });
    }
    // A larger cart never earns less: adding to the cart must not lower the discount.
    const sorted = [...action.tiers].sort((a, b) => a.minSubtotal - b.minSubtotal);
    if (sorted.some((t, i) => i > 0 && t.percent < sorted[i - 1].percent)) {
      problems.push({ field: 'action.tiers', message: 'a higher minSubtotal must give at least the percent of a lower one' });
    }
  }
  if (kind === 'catalog' && action.type !== 'percent' && action.type !== 'fixed') {
    problems.push({ field: 'action.type', message: 'a catalog promotion is percent or fixed' });
  }
  return problems;
}

function conditionProblems(kind: PromotionDraft['kind'], c: PromotionConditions): FieldProblem[] {
  if (kind !== 'catalog') return [];
  // A catalog price is the same for everyone and every cart.
  return (['minSubtotal', 'minQty', 'customersOnly'] as const)
    .filter((key) => c[key] !== undefined)
    .map((key) => ({ field: `conditions.${key}`, message: 'applies to cart promotions only' }));
}

/** The draft's problems; empty when it may be written. */
export function promotionProblems(draft: PromotionDraft): FieldProblem[] {
  const problems = [...actionProblems(draft.kind, draft.action), ...conditionProblems(draft.kind, draft.conditions)];
  if (draft.startsAt && draft.endsAt && draft.endsAt <= draft.startsAt) {
    problems.push({ field: 'endsAt', message: 'must be after startsAt' });
  }
  return problems;
}

/** Whether two windows (null: open-ended) share an instant; the end is exclusive. */
export function windowsOverlap(
  a: { startsAt: Date | null; endsAt: Date | null },
  b: { startsAt: Date | null; endsAt: Date | null },
): boolean {
  const startsBeforeEnd = (s: Date | null, e: Date | null) => s === null || e === null || s < e;
  return startsBeforeEnd(a.startsAt, b.endsAt) && startsBeforeEnd(b.startsAt, a.endsAt);
}
