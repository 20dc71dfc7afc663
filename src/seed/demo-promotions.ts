import type { Db } from '../db/client.ts';
import { promotions } from '../modules/promotions/promotion.tables.ts';

// The demo shop's promotions (docs/promotions.md): a catalog sale running on the Tea department,
// so the storefront shows reduced prices beside their EU Omnibus reference, and a cart promotion
// the quote applies from a subtotal, both listed in the back office's Promotions screen.

const DAY_MS = 86_400_000;

/** The department the demo's catalog sale covers (its categories below it too). */
export const DEMO_SALE_DEPARTMENT = 'Tea';
/** The demo sale's percent off. */
export const DEMO_SALE_PERCENT = 15;

export function demoPromotions(now: Date, saleCategoryId: number): (typeof promotions.$inferInsert)[] {
  return [
    {
      name: `Tea week: −${DEMO_SALE_PERCENT} % on every tea`,
      kind: 'catalog',
      conditions: { categoryIds: [saleCategoryId] },
      action: { type: 'percent', value: DEMO_SALE_PERCENT },
      // Open-ended: a demo shop seeded long ago still shows a running sale.
      startsAt: new Date(now.getTime() - 2 * DAY_MS),
      endsAt: null,
    },
    {
      name: '10 % off from 80.00',
      kind: 'cart',
      conditions: { minSubtotal: 80 },
      action: { type: 'percent', value: 10 },
      startsAt: new Date(now.getTime() - 2 * DAY_MS),
      endsAt: null,
    },
  ];
}

/** Writes the demo promotions; answers how many. */
export async function insertDemoPromotions(tx: Db, now: Date, saleCategoryId: number): Promise<number> {
  const rows = demoPromotions(now, saleCategoryId);
  await tx.insert(promotions).values(rows);
  return rows.length;
}
