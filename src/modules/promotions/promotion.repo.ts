import { and, eq, inArray, isNotNull, isNull, lt, or, type Placeholder, type SQL, sql } from 'drizzle-orm';
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
export function namedIn<T extends RunningCartPromotion>(promotions: readonly T[], locale: string | null): T[] {
  if (locale === null) return [...promotions];
  return promotions.map((p) => {
    const name = p.translations?.[locale]?.name;
    return name ? { ...p, name } : p;
  });
}

/**
 * What the quote's statement answers of the cart promotions: the ids of the running ones (active,
 * inside their window, not used up: judged by the statement against its own time), the promotions'
 * version, and every active cart promotion only when the caller's copy is not of that version.
 */
export interface CartPromotionsRead {
  running: number[];
  /** The promotion table's resource_version (null before its first write). */
  version: string | null;
  /** Every active cart promotion, running or not; null when the caller holds this version. */
  promotions: RunningCartPromotion[] | null;
}

/** The read for a caller holding the promotions of version `known` (a text placeholder; null: none). */
export function cartPromotionsReadJson(known: SQL | Placeholder) {
  const running = sql`(p.starts_at is null or p.starts_at <= now()) and (p.ends_at is null or p.ends_at > now())
    and (p.usage_limit is null or p.used_count < p.usage_limit)`;
  // FILTER: a caller of the current version is sent no promotion (nothing built, nothing parsed).
  const stale = sql`(v.version is null or v.version is distinct from ${known}::text)`;
  // OFFSET 0 keeps the planner from pulling `v` up: each of the six uses of v.version read the version again.
  return sql<CartPromotionsRead>`(select json_build_object(
      'running', coalesce(array_agg(p.id order by p.id) filter (where p.id is not null and ${running}), '{}'),
      'version', v.version,
      'promotions', case when ${stale} then coalesce(json_agg(json_build_object('id', p.id, 'name', p.name,
        'conditions', p.conditions, 'action', p.action, 'priority', p.priority, 'exclusive', p.exclusive,
        'combinesWithCoupons', p.combines_with_coupons, 'usageLimit', p.usage_limit,
        'translations', p.translations) order by p.id) filter (where ${stale} and p.id is not null), '[]') end)
    from (select (select r.version::text from resource_version r where r.name = 'promotion') as version offset 0) v
    left join ${promotions} p on p.kind = 'cart' and p.active
    group by v.version)`;
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
