import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { csvRow, csvTable } from '../../lib/csv.ts';
import { fromCents, toCents } from '../../lib/money.ts';
import { getSetting } from '../settings/settings.service.ts';
import { type Interval, periodOf } from './report-period.ts';
import { couponUse, loyaltyFlows, salesReport, topProducts } from './reports.repo.ts';

export interface ReportDeps {
  db: Db;
  config: Config;
}

const money = (cents: number) => fromCents(cents);

export async function periodFor(deps: ReportDeps, query: { from?: string; to?: string }) {
  const timeZone = await getSetting(deps.db, deps.config, 'timezone');
  const period = periodOf(query, timeZone);
  const to = new Date(Date.parse(`${period.toExclusive}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
  return { period, to };
}

export async function sales(deps: ReportDeps, query: { from?: string; to?: string; interval?: Interval }) {
  const interval = query.interval ?? 'day';
  const { period, to } = await periodFor(deps, query);
  const rows = await salesReport(deps.db, period, interval);
  return {
    from: period.from,
    to,
    interval,
    timezone: period.timeZone,
    currency: await getSetting(deps.db, deps.config, 'currency'),
    buckets: rows.map((r) => ({
      period: r.period,
      orders: r.orders,
      items: r.items,
      gross: money(r.gross),
      net: money(r.net),
      vatTotal: money(r.gross - r.net),
      vat: r.vat.map((v) => ({ rate: v.rate, net: money(v.net), vat: money(v.vat), gross: money(v.gross) })),
      vatByCountry: r.vatByCountry.map((v) => ({
        country: v.country,
        rate: v.rate,
        net: money(v.net),
        vat: money(v.vat),
        gross: money(v.gross),
      })),
      discounts: money(r.discounts),
      shipping: money(r.shipping),
      delivery: money(r.delivery),
      giftPackaging: money(r.giftPackaging),
      pointsCash: money(r.pointsCash),
      returns: r.returns,
      refunds: money(r.refunds),
    })),
  };
}

/** One line per bucket; each VAT rate seen in the period gets its net, VAT and gross columns. */
export function salesCsv(report: Awaited<ReturnType<typeof sales>>): string {
  const rates = [...new Set(report.buckets.flatMap((b) => b.vat.map((v) => v.rate)))].sort((a, b) => a - b);
  const head = ['period', 'orders', 'items', 'gross', 'net', 'vat'];
  const tail = ['discounts', 'shipping', 'delivery', 'gift_packaging', 'points_cash', 'returns', 'refunds'];
  const rateHead = rates.flatMap((r) => [`net_${r}`, `vat_${r}`, `gross_${r}`]);
  const lines = report.buckets.map((b) => {
    const byRate = new Map(b.vat.map((v) => [v.rate, v]));
    return csvRow([
      b.period,
      b.orders,
      b.items,
      b.gross.toFixed(2),
      b.net.toFixed(2),
      b.vatTotal.toFixed(2),
      ...rates.flatMap((r) => {
        const v = byRate.get(r);
        return [v?.net ?? 0, v?.vat ?? 0, v?.gross ?? 0].map((n) => n.toFixed(2));
      }),
      ...[b.discounts, b.shipping, b.delivery, b.giftPackaging, b.pointsCash].map((n) => n.toFixed(2)),
      b.returns,
      b.refunds.toFixed(2),
    ]);
  });
  return csvRow([...head, ...rateHead, ...tail]) + lines.join('');
}

export async function topProductsReport(
  deps: ReportDeps,
  query: { from?: string; to?: string; limit?: number },
) {
  const { period } = await periodFor(deps, query);
  const rows = await topProducts(deps.db, period, query.limit ?? 10);
  return rows.map((r) => ({ ...r, gross: money(r.gross) }));
}

export function topProductsCsv(rows: Awaited<ReturnType<typeof topProductsReport>>): string {
  return csvTable(
    ['productId', 'sku', 'name', 'units', 'gross', 'returnedUnits'],
    rows.map((r) => ({ ...r, gross: r.gross.toFixed(2) })),
  );
}

/**
 * Coupon use in the period. Codes are commercial data (a live code is a discount anyone can type):
 * without `withCodes` (a Reporting-only caller) each row names its coupon by id, with `code` null.
 */
export async function couponsReport(
  deps: ReportDeps,
  query: { from?: string; to?: string },
  withCodes: boolean,
) {
  const { period } = await periodFor(deps, query);
  const rows = await couponUse(deps.db, period);
  return rows.map((r) => ({
    ...r,
    code: withCodes ? r.code : null,
    discount: money(r.discount),
    gross: money(r.gross),
  }));
}

/** The CSV has no `code` column when the rows carry no codes. */
export function couponsCsv(rows: Awaited<ReturnType<typeof couponsReport>>, withCodes: boolean): string {
  const columns = ['couponId', 'code', 'orders', 'discount', 'gross'] as const;
  return csvTable(
    columns.filter((c) => withCodes || c !== 'code'),
    rows.map((r) => ({ ...r, discount: r.discount.toFixed(2), gross: r.gross.toFixed(2) })),
  );
}

export async function loyaltyReport(deps: ReportDeps, query: { from?: string; to?: string }) {
  const { period, to } = await periodFor(deps, query);
  const flows = await loyaltyFlows(deps.db, period);
  const spendPoints = await getSetting(deps.db, deps.config, 'loyalty_spend_points');
  const cashPerUnit = await getSetting(deps.db, deps.config, 'loyalty_reward_cash_per_unit');
  const units = Math.floor(flows.outstanding / spendPoints);
  return {
    from: period.from,
    to,
    ...flows,
    outstandingCash: fromCents(units * toCents(cashPerUnit)),
  };
}

export function loyaltyCsv(report: Awaited<ReturnType<typeof loyaltyReport>>): string {
  return csvTable(
    ['from', 'to', 'earned', 'redeemed', 'returned', 'adjusted', 'outstanding', 'outstandingCash'],
    [{ ...report, outstandingCash: report.outstandingCash.toFixed(2) }],
  );
}
