import { sql } from 'drizzle-orm';
import type { Db } from '../../src/db/client.ts';

// Many orders at once, straight into the database (place-order through HTTP would take minutes):
// for the export memory test and the report and order-list benchmarks. Every order is consistent
// with itself: two lines (24 % and 13 % VAT), shipping 4.90 at 24 %, a 2.00 coupon on every
// seventh, total = lines + shipping − coupon, and the VAT breakdown sums to the total. Orders are
// spread evenly over the `days` before now, later ids later (as placed), statuses in turn.

export async function seedOrders(db: Db, count: number, days = 365): Promise<void> {
  // In slices: every order fires the trigger that keeps its report rows (drizzle/0021), and one
  // statement must stay within the service's statement timeout.
  for (let first = 1; first <= count; first += SLICE) {
    await seedSlice(db, first, Math.min(count, first + SLICE - 1), count, days);
  }
  await db.execute(sql`
    insert into sales_order_line (order_id, product_id, sku, name, unit_price, qty, vat_rate, line_total)
    select o.id, v.product, 'SKU-' || v.product, 'Product ' || v.product, v.amount, 1, v.rate, v.amount
    from sales_order o
    cross join lateral (values
      (1 + o.id % 50, 24, (o.totals->>'subtotal')::int - (o.vat_breakdown->0->>'gross')::int),
      (51 + o.id % 50, 13, (o.vat_breakdown->0->>'gross')::int)) as v(product, rate, amount)
    where o.email like 'buyer%' and not exists (select 1 from sales_order_line l where l.order_id = o.id)`);
  // As autovacuum would have by then: statistics, and the visibility map that lets counts and the
  // report rows be read from their indexes alone.
  await db.execute(sql`vacuum (analyze) sales_order, sales_order_line, sales_order_vat, sales_order_figures`);
}

const SLICE = 10_000;

async function seedSlice(db: Db, first: number, last: number, count: number, days: number): Promise<void> {
  await db.execute(sql`
    with s as (
      select g, 1000 + (g * 7919) % 5000 as a, 500 + ((g::bigint * 104729) % 700)::int as b,
        case when g % 7 = 0 then 200 else 0 end as c,
        now() - (${count}::int - g) * (${days}::int * interval '1 day' / ${count}::int) as at
      from generate_series(${first}::int, ${last}::int) g
    ), f as (
      select *, a + 490 - c as hi, round(b * 13 / 113.0)::int as vat13, round((a + 490 - c) * 24 / 124.0)::int as vat24
      from s
    )
    insert into sales_order (email, status, currency, total, totals, address, vat_breakdown, coupon_code,
      pay_way, payment_status, paid_amount, transport_name, created_at, updated_at)
    select 'buyer' || g || '@example.com', (array['pending','confirmed','shipped','delivered','cancelled'])[1 + g % 5],
      'EUR', a + b + 490 - c,
      jsonb_build_object('subtotal', a + b, 'itemCount', 2, 'shippingCost', 490, 'overweightCost', 0,
        'deliveryCost', 0, 'couponDiscount', c, 'giftPackagingCost', 0, 'giftDiscount', 0, 'pointsSpend', 0,
        'pointsCash', 0, 'payableBeforePoints', a + b + 490 - c, 'total', a + b + 490 - c,
        'loyalty', jsonb_build_object('pointSystemEnabled', true, 'spendPoints', 100, 'rewardCashPerUnit', 500,
          'balance', 0, 'redeemablePoints', 0, 'redeemableCash', 0, 'canRedeem', false, 'wouldExceed', false)),
      jsonb_build_object('firstName', 'Bench', 'lastName', 'Buyer ' || g, 'phone', '+30 210 0000000',
        'email', 'buyer' || g || '@example.com', 'street', 'Odos ' || g, 'city', 'Athens', 'countyAlpha', null,
        'countryAlpha2', 'GR', 'postalCode', '10558'),
      jsonb_build_array(
        jsonb_build_object('rate', 13, 'net', b - vat13, 'vat', vat13, 'gross', b),
        jsonb_build_object('rate', 24, 'net', hi - vat24, 'vat', vat24, 'gross', hi)),
      case when c > 0 then 'SEVEN' end, 'card',
      case when g % 5 in (1, 2, 3) then 'paid' else 'pending' end,
      case when g % 5 in (1, 2, 3) then a + b + 490 - c else 0 end,
      'Courier', at, at
    from f order by g`);
}
