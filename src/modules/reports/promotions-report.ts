import { Type } from '@sinclair/typebox';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../db/client.ts';
import { csvTable } from '../../lib/csv.ts';
import { fromCents } from '../../lib/money.ts';
import { type ReportDeps, periodFor } from './reports.service.ts';
import { within } from './reports.repo.ts';

// Discount given per cart promotion in the period (docs/promotions.md): each order keeps what every
// promotion took off it (promotion_redemption, written with the order; a cancel deletes it).

const Money = (description: string) => Type.Number({ description: `${description} (gross, decimal)` });

export const PromotionUseJson = Type.Object({
  promotionId: Type.Integer({ description: 'The promotion (checkout/promotion)' }),
  name: Type.String(),
  orders: Type.Integer({ description: 'Orders it applied to' }),
  discount: Money('Σ what it took off those orders'),
  gross: Money('Σ totals of those orders'),
});

interface PromotionUseRow {
  promotionId: number;
  name: string;
  orders: number;
  discount: number;
  gross: number;
}

export async function promotionsReport(deps: ReportDeps, query: { from?: string; to?: string }) {
  const { period } = await periodFor(deps, query);
  const rows = await queryRows<PromotionUseRow>(
    deps.db,
    sql`select r.promotion_id as "promotionId", p.name, count(*)::int as orders,
        sum(r.amount)::float8 as discount, sum(o.total)::float8 as gross
      from promotion_redemption r
      join promotion p on p.id = r.promotion_id
      join sales_order o on o.id = r.order_id
      where ${within(sql`o.created_at`, period)} and o.status <> 'cancelled'
      group by r.promotion_id, p.name order by discount desc, r.promotion_id`,
  );
  return rows.map((r) => ({ ...r, discount: fromCents(r.discount), gross: fromCents(r.gross) }));
}

export function promotionsCsv(rows: Awaited<ReturnType<typeof promotionsReport>>): string {
  return csvTable(
    ['promotionId', 'name', 'orders', 'discount', 'gross'],
    rows.map((r) => ({ ...r, discount: r.discount.toFixed(2), gross: r.gross.toFixed(2) })),
  );
}
