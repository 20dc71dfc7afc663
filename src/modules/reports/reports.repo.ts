import { type SQL, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client.ts';
import type { Interval, Period } from './report-period.ts';

// Reports are aggregations in SQL over indexed columns (sales_order.created_at, order_return.created_at):
// no order is loaded into the service. Sums are cast to float8, which holds any sum of cents below
// 2^53 exactly and reads as a number on both engines. Days, weeks and months are those of the
// shop's time zone: an instant is turned into the zone's local time before it is truncated.

/** `created_at` of `table` inside the period, as bounds the created_at index can use. */
export function within(column: SQL, p: Period): SQL {
  return sql`${column} >= (${p.from}::timestamp at time zone ${p.timeZone})
    and ${column} < (${p.toExclusive}::timestamp at time zone ${p.timeZone})`;
}

export interface VatRow {
  rate: number;
  net: number;
  vat: number;
  gross: number;
}

/** One VAT rate of one delivery country (destination VAT, docs/shipping-and-tax.md). */
export interface CountryVatRow extends VatRow {
  country: string;
}

export interface SalesRow {
  period: string;
  orders: number;
  items: number;
  gross: number;
  net: number;
  vat: VatRow[];
  vatByCountry: CountryVatRow[];
  discounts: number;
  shipping: number;
  delivery: number;
  giftPackaging: number;
  pointsCash: number;
  returns: number;
  refunds: number;
}

/**
 * Sales per bucket (every bucket of the period, empty ones with zeros): orders that are not
 * cancelled, by the time they were placed; refunds by the time the goods came back.
 */
export async function salesReport(db: Db, p: Period, interval: Interval): Promise<SalesRow[]> {
  const bucket = (column: SQL) => sql`date_trunc(${interval}, ${column} at time zone ${p.timeZone})`;
  // Both halves read rows the database keeps beside each order for this report (drizzle/0020,
  // 0021): the order's figures and its VAT per rate, from their indexes alone.
  return queryRows<SalesRow>(
    db,
    sql`with figures as (
      select ${bucket(sql`f.created_at`)} as bucket, count(*)::int as orders, sum(f.items)::float8 as items,
        sum(f.total)::float8 as gross, sum(f.discounts)::float8 as discounts,
        sum(f.shipping)::float8 as shipping, sum(f.delivery)::float8 as delivery,
        sum(f.gift_packaging)::float8 as gift_packaging, sum(f.points_cash)::float8 as points_cash
      from sales_order_figures f
      where ${within(sql`f.created_at`, p)} and f.counted
      group by 1
    ), per_rate as (
      select ${bucket(sql`v.created_at`)} as bucket, v.rate::float8 as rate, sum(v.net)::float8 as net,
        sum(v.vat)::float8 as vat, sum(v.gross)::float8 as gross
      from sales_order_vat v
      where ${within(sql`v.created_at`, p)} and v.counted
      group by 1, 2
    ), rates as (
      select bucket, sum(net)::float8 as net,
        json_agg(json_build_object('rate', rate, 'net', net, 'vat', vat, 'gross', gross) order by rate) as vat
      from per_rate group by bucket
    ), per_country as (
      select ${bucket(sql`v.created_at`)} as bucket, v.country, v.rate::float8 as rate, sum(v.net)::float8 as net,
        sum(v.vat)::float8 as vat, sum(v.gross)::float8 as gross
      from sales_order_vat v
      where ${within(sql`v.created_at`, p)} and v.counted
      group by 1, 2, 3
    ), countries as (
      select bucket, json_agg(json_build_object('country', country, 'rate', rate, 'net', net, 'vat', vat,
        'gross', gross) order by country, rate) as vat_by_country
      from per_country group by bucket
    ), refunds as (
      select ${bucket(sql`created_at`)} as bucket, count(*)::int as returns, sum(amount)::float8 as refunds
      from order_return where ${within(sql`created_at`, p)}
      group by 1
    ), buckets as (
      select generate_series(date_trunc(${interval}, ${p.from}::timestamp),
        ${p.toExclusive}::timestamp - interval '1 day', ('1 ' || ${interval})::interval) as bucket
    )
    select to_char(b.bucket, 'YYYY-MM-DD') as period, coalesce(f.orders, 0) as orders,
      coalesce(f.items, 0) as items, coalesce(f.gross, 0) as gross, coalesce(r.net, 0) as net,
      coalesce(r.vat, '[]') as vat, coalesce(c.vat_by_country, '[]') as "vatByCountry",
      coalesce(f.discounts, 0) as discounts,
      coalesce(f.shipping, 0) as shipping, coalesce(f.delivery, 0) as delivery,
      coalesce(f.gift_packaging, 0) as "giftPackaging", coalesce(f.points_cash, 0) as "pointsCash",
      coalesce(x.returns, 0) as returns, coalesce(x.refunds, 0) as refunds
    from buckets b left join figures f using (bucket) left join rates r using (bucket)
      left join countries c using (bucket) left join refunds x using (bucket)
    order by b.bucket`,
  );
}

export interface TopProductRow {
  productId: number;
  sku: string;
  name: string;
  units: number;
  gross: number;
  returnedUnits: number;
}

/** Products by units sold in the period (free gift lines not counted), then by gross. */
export async function topProducts(db: Db, p: Period, limit: number): Promise<TopProductRow[]> {
  return queryRows<TopProductRow>(
    db,
    sql`with sold as (
      select l.product_id, sum(l.qty)::float8 as units, sum(l.line_total)::float8 as gross,
        (array_agg(l.sku order by l.id desc))[1] as sku, (array_agg(l.name order by l.id desc))[1] as name,
        array_agg(l.id) as line_ids
      from sales_order o join sales_order_line l on l.order_id = o.id
      where ${within(sql`o.created_at`, p)} and o.status <> 'cancelled' and l.gift_id is null
      group by l.product_id
      order by units desc, gross desc, l.product_id
      limit ${limit}
    )
    select s.product_id as "productId", s.sku, s.name, s.units, s.gross,
      coalesce((select sum(rl.qty) from order_return_line rl where rl.order_line_id = any(s.line_ids)), 0)::float8
        as "returnedUnits"
    from sold s order by s.units desc, s.gross desc, s.product_id`,
  );
}

export interface CouponRow {
  couponId: number | null;
  code: string;
  orders: number;
  discount: number;
  gross: number;
}

export async function couponUse(db: Db, p: Period): Promise<CouponRow[]> {
  return queryRows<CouponRow>(
    db,
    sql`select coupon_id as "couponId", coupon_code as code, count(*)::int as orders,
        sum((totals->>'couponDiscount')::int)::float8 as discount, sum(total)::float8 as gross
      from sales_order
      where ${within(sql`created_at`, p)} and status <> 'cancelled' and coupon_code is not null
      group by coupon_id, coupon_code order by orders desc, discount desc, coupon_id, coupon_code`,
  );
}

export interface LoyaltyRow {
  earned: number;
  redeemed: number;
  returned: number;
  adjusted: number;
  outstanding: number;
}

/** Points that moved in the period by why, and the balance outstanding now (every customer's). */
export async function loyaltyFlows(db: Db, p: Period): Promise<LoyaltyRow> {
  const [row] = await queryRows<LoyaltyRow>(
    db,
    sql`select
      coalesce(sum(delta) filter (where reason = 'earned'), 0)::float8 as earned,
      coalesce(-sum(delta) filter (where reason = 'redeemed'), 0)::float8 as redeemed,
      coalesce(sum(delta) filter (where reason = 'returned'), 0)::float8 as returned,
      coalesce(sum(delta) filter (where reason = 'admin_adjustment'), 0)::float8 as adjusted,
      (select coalesce(sum(loyalty_points), 0)::float8 from customer) as outstanding
    from loyalty_ledger where ${within(sql`created_at`, p)}`,
  );
  return row;
}
