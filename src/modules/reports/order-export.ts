import { Readable } from 'node:stream';
import { and, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client.ts';
import { type CsvValue, csvRow } from '../../lib/csv.ts';
import { fromCents } from '../../lib/money.ts';
import { orderConditions } from '../orders/order.repo.ts';
import type { OrderFilters } from '../orders/order.schemas.ts';

// The order export: the order list's filters, newest first, as CSV written to the answer while it
// is read. Orders come in batches by keyset (id below the last one sent), one batch in memory at a
// time, and the next batch is read only when the client has taken the previous one (the stream's
// back-pressure), so memory stays flat whatever the number of orders. Each batch is its own
// statement: an order placed during a long export may or may not be in it.

const BATCH = 1000;

interface ExportRow {
  id: number;
  number: string;
  createdAt: string;
  status: string;
  paymentStatus: string;
  email: string;
  customerId: number | null;
  currency: string;
  items: number;
  subtotal: number;
  discount: number;
  shipping: number;
  delivery: number;
  giftPackaging: number;
  pointsSpent: number;
  pointsCash: number;
  total: number;
  paid: number;
  refunded: number;
  couponCode: string | null;
  payWay: string | null;
  transport: string | null;
}

const MONEY: (keyof ExportRow)[] = [
  'subtotal',
  'discount',
  'shipping',
  'delivery',
  'giftPackaging',
  'pointsCash',
  'total',
  'paid',
  'refunded',
];
const COLUMNS: (keyof ExportRow)[] = [
  'number',
  'createdAt',
  'status',
  'paymentStatus',
  'email',
  'customerId',
  'currency',
  'items',
  'subtotal',
  'discount',
  'shipping',
  'delivery',
  'giftPackaging',
  'pointsSpent',
  'pointsCash',
  'total',
  'paid',
  'refunded',
  'couponCode',
  'payWay',
  'transport',
];

async function batchBelow(db: Db, filters: OrderFilters, beforeId: number): Promise<ExportRow[]> {
  const where = and(orderConditions(filters), sql`id < ${beforeId}`);
  return queryRows<ExportRow>(
    db,
    sql`select id, number, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "createdAt",
      status, payment_status as "paymentStatus", email, customer_id as "customerId", currency,
      (totals->>'itemCount')::int as items, (totals->>'subtotal')::int as subtotal,
      (totals->>'couponDiscount')::int as discount, (totals->>'shippingCost')::int as shipping,
      (totals->>'deliveryCost')::int as delivery, (totals->>'giftPackagingCost')::int as "giftPackaging",
      points_spent as "pointsSpent", (totals->>'pointsCash')::int as "pointsCash", total,
      paid_amount as paid, refunded_amount as refunded, coupon_code as "couponCode", pay_way as "payWay",
      transport_name as transport
    from sales_order where ${where} order by id desc limit ${BATCH}`,
  );
}

function line(row: ExportRow, columns: readonly (keyof ExportRow)[]): string {
  return csvRow(
    columns.map((c): CsvValue => {
      const value = row[c];
      return MONEY.includes(c) && typeof value === 'number' ? fromCents(value).toFixed(2) : value;
    }),
  );
}

async function* csvLines(db: Db, filters: OrderFilters, withEmail: boolean): AsyncGenerator<string> {
  const columns = withEmail ? COLUMNS : COLUMNS.filter((c) => c !== 'email');
  yield csvRow(columns);
  let beforeId = 2_147_483_647;
  for (;;) {
    const rows = await batchBelow(db, filters, beforeId);
    if (rows.length === 0) return;
    yield rows.map((r) => line(r, columns)).join('');
    if (rows.length < BATCH) return;
    beforeId = rows[rows.length - 1].id;
  }
}

/** The export as a byte stream for the answer; `withEmail` false leaves personal data out. */
export function exportOrdersCsv(db: Db, filters: OrderFilters, withEmail: boolean): Readable {
  return Readable.from(csvLines(db, filters, withEmail), { objectMode: false });
}
