import { and, eq, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { CartPromotion } from '../pricing/promotion-rules.ts';
import { promotionRedemptions, promotions } from './promotion.tables.ts';

// The promotions' reads for the quote and their writes at place-order and cancel (docs/promotions.md).

/** A running cart promotion as the quote reads it, with what its usage limit needs. */
export interface RunningCartPromotion extends CartPromotion {
  usageLimit: number | null;
  /** Its name in other locales: `{el: {name}}` (docs/translations.md). */
  translations: Record<string, { name?: string }> | null;
}

/** The promotions with each name in `locale`, their own where it has none (null: the default locale). */
export function namedIn<T extends RunningCartPromotion>(
  promotions: readonly T[],
  locale: string | null,
): T[] {
  if (locale === null) return [...promotions];
  return promotions.map((p) => {
    const name = p.translations?.[locale]?.name;
    return name ? { ...p, name } : p;
  });
}

/**
 * Counts one use of a limited promotion by an order (a guarded UPDATE, which also locks its row until
 * commit); false when used up. Unlimited promotions are not counted on their row, so orders never
 * queue behind a popular one: their uses are the redemptions.
 */
export async function takePromotionUse(db: Db, promotionId: number): Promise<boolean> {
  const rows = await db
    .update(promotions)
    .set({ usedCount: sql`${promotions.usedCount} + 1` })
    .where(
      and(
        eq(promotions.id, promotionId),
        or(isNull(promotions.usageLimit), lt(promotions.usedCount, promotions.usageLimit)),
      ),
    )
    .returning({ id: promotions.id });
  return rows.length === 1;
}

/** Records what each promotion gave an order (reports read it; a cancel gives the uses back). */
export async function insertPromotionRedemptions(
  db: Db,
  orderId: number,
  applied: readonly { id: number; amount: number }[],
): Promise<void> {
  if (applied.length === 0) return;
  await db
    .insert(promotionRedemptions)
    .values(applied.map((p) => ({ promotionId: p.id, orderId, amount: p.amount })));
}

/** A cancelled order: its promotions' uses come back and it no longer counts in the reports. */
export async function releasePromotionUses(db: Db, orderId: number): Promise<void> {
  const released = await db
    .delete(promotionRedemptions)
    .where(eq(promotionRedemptions.orderId, orderId))
    .returning({ promotionId: promotionRedemptions.promotionId });
  if (released.length === 0) return;
  // Only limited promotions count their uses on the row (see takePromotionUse).
  await db
    .update(promotions)
    .set({ usedCount: sql`greatest(${promotions.usedCount} - 1, 0)` })
    .where(
      and(
        inArray(
          promotions.id,
          released.map((r) => r.promotionId),
        ),
        isNotNull(promotions.usageLimit),
      ),
    );
}
