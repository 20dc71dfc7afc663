import { sql } from 'drizzle-orm';
import { KeptCopy } from '../../resources/index.ts';
import type { RunningCartPromotion } from './promotion.repo.ts';

// The cart promotions a quote applies, kept between requests (docs/promotions.md, "Performance"):
// the quote's statement reads the promotions' version, and every active cart promotion is read
// again only when the copy kept here is of another one; which of them run (inside their window, not used up)
// is judged here against the quote's time. A use counted on a limited promotion is a write to its
// row, so it moves the version too.

/** An active cart promotion as kept: its window and its uses besides what the quote applies. */
export interface ActiveCartPromotion extends RunningCartPromotion {
  /** Milliseconds since the epoch (null: open). */
  startsAt: number | null;
  endsAt: number | null;
  usedCount: number;
}

interface KeptPromotion {
  promotion: RunningCartPromotion;
  startsAt: number;
  endsAt: number;
  usedUp: boolean;
}

const activeCartPromotionsJson = sql`(select coalesce(json_agg(json_build_object('id', p.id, 'name', p.name,
    'conditions', p.conditions, 'action', p.action, 'priority', p.priority, 'exclusive', p.exclusive,
    'combinesWithCoupons', p.combines_with_coupons, 'usageLimit', p.usage_limit, 'usedCount', p.used_count,
    'startsAt', extract(epoch from p.starts_at) * 1000, 'endsAt', extract(epoch from p.ends_at) * 1000, 'translations', p.translations) order by p.id), '[]')
  from promotion p where p.kind = 'cart' and p.active)`;

function keep(rows: ActiveCartPromotion[]): KeptPromotion[] {
  return rows.map(({ startsAt, endsAt, usedCount, ...promotion }) => ({
    promotion,
    startsAt: startsAt ?? -Infinity,
    endsAt: endsAt ?? Infinity,
    usedUp: promotion.usageLimit !== null && usedCount >= promotion.usageLimit,
  }));
}

export const activeCartPromotions = new KeptCopy(
  'cartPromotions',
  ['promotion'],
  activeCartPromotionsJson,
  keep,
);

/** The promotions of a kept copy that run at `now`, in id order. */
export function runningAt(kept: readonly KeptPromotion[], now: Date): RunningCartPromotion[] {
  const t = now.getTime();
  return kept.filter((k) => k.startsAt <= t && t < k.endsAt && !k.usedUp).map((k) => k.promotion);
}
