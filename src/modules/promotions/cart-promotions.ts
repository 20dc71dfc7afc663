import { sql } from 'drizzle-orm';
import { KeptCopy, type Windowed, windowed, windowJson } from '../../resources/index.ts';
import type { RunningCartPromotion } from './promotion.repo.ts';

// The cart promotions a quote applies, kept between requests (docs/promotions.md, "Performance"):
// the quote's statement reads the promotions' version, and every active cart promotion is read
// again only when the copy kept here is of another one; which of them run is judged by the quote
// against its own time (src/resources/windows.ts). A use counted on a limited promotion is a write to its row, so
// it moves the version too: a used-up promotion is left out of the copy until then.

/** An active cart promotion as read: its window and its uses besides what the quote applies. */
interface ActiveCartPromotion extends RunningCartPromotion {
  /** Milliseconds since the epoch (null: open). */
  startsAt: number | null;
  endsAt: number | null;
  usedCount: number;
}

const activeCartPromotionsJson = sql`(select coalesce(json_agg(json_build_object('id', p.id, 'name', p.name,
    'conditions', p.conditions, 'action', p.action, 'priority', p.priority, 'exclusive', p.exclusive,
    'combinesWithCoupons', p.combines_with_coupons, 'usageLimit', p.usage_limit, 'usedCount', p.used_count,
    ${windowJson(sql`p.starts_at`, sql`p.ends_at`)}, 'translations', p.translations) order by p.id), '[]')
  from promotion p where p.kind = 'cart' and p.active)`;

function keep(rows: ActiveCartPromotion[]): Windowed<RunningCartPromotion>[] {
  return rows
    .filter((p) => p.usageLimit === null || p.usedCount < p.usageLimit)
    .map(({ startsAt, endsAt, usedCount, ...promotion }) => windowed(promotion, startsAt, endsAt));
}

export const activeCartPromotions = new KeptCopy(
  'cartPromotions',
  ['promotion'],
  activeCartPromotionsJson,
  keep,
);
