import { and, asc, desc, eq, getTableColumns, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { run } from '../../db/statements.ts';
import { type AfterOrder, afterOrderColumns, afterOrderOf } from './after-order.repo.ts';
import type { OrderStatus } from './order-states.ts';
import type { PaymentState, PaymentStatus } from './payment-states.ts';
import { LINES_JSON } from './placed-order.repo.ts';
import {
  idempotencyKeys,
  type SalesOrderLineRow,
  type SalesOrderRow,
  salesOrderLines,
  salesOrders,
} from './order.tables.ts';

export async function linesOf(db: Db, orderId: number): Promise<SalesOrderLineRow[]> {
  return db
    .select()
    .from(salesOrderLines)
    .where(eq(salesOrderLines.orderId, orderId))
    .orderBy(asc(salesOrderLines.id));
}

/** Orders by id (those that exist), for work over a batch of events. */
export async function findOrders(db: Db, ids: readonly number[]): Promise<SalesOrderRow[]> {
  if (ids.length === 0) return [];
  return db.select().from(salesOrders).where(inArray(salesOrders.id, [...ids]));
}

/** The lines of several orders, in each order's line order. */
export async function linesOfOrders(db: Db, orderIds: readonly number[]): Promise<SalesOrderLineRow[]> {
  if (orderIds.length === 0) return [];
  return db
    .select()
    .from(salesOrderLines)
    .where(inArray(salesOrderLines.orderId, [...orderIds]))
    .orderBy(asc(salesOrderLines.id));
}

/** One order; with `customerId`, only when it is that customer's (the owner filter is in SQL). */
export async function findOrder(
  db: Db,
  id: number,
  customerId?: number,
  lock = false,
): Promise<SalesOrderRow | undefined> {
  const where =
    customerId === undefined
      ? eq(salesOrders.id, id)
      : and(eq(salesOrders.id, id), eq(salesOrders.customerId, customerId));
  const query = db.select().from(salesOrders).where(where).limit(1);
  const rows = lock ? await query.for('update') : await query;
  return rows[0];
}

export interface OrderFilter {
  customerId?: number;
  status?: OrderStatus;
  /** ISO instants: placed at or after `createdFrom`, before `createdTo`. */
  createdFrom?: string;
  createdTo?: string;
  /** Compared in any case. */
  email?: string;
  number?: string;
  paymentStatus?: PaymentStatus;
  /** A decimal amount: orders whose total is above it. */
  totalAbove?: number;
}

export interface OrderPageQuery extends OrderFilter {
  limit: number;
  offset: number;
}

const FILTERS = [
  'customerId',
  'status',
  'createdFrom',
  'createdTo',
  'email',
  'number',
  'paymentStatus',
  'totalAbove',
] as const;

/** A filter's value as bound: instants as ISO text, so a placeholder and a literal take the same value. */
function filterValues(q: OrderFilter): Record<(typeof FILTERS)[number], unknown> {
  const instant = (value: string | undefined) =>
    value === undefined ? undefined : new Date(value).toISOString();
  return {
    customerId: q.customerId,
    status: q.status,
    createdFrom: instant(q.createdFrom),
    createdTo: instant(q.createdTo),
    email: q.email,
    number: q.number,
    paymentStatus: q.paymentStatus,
    totalAbove: q.totalAbove,
  };
}

/**
 * The list's filters as SQL (the CSV export applies the same ones): with their values, or as
 * placeholders for a named statement, whose text then depends only on which filters are present.
 */
export function orderConditions(q: OrderFilter, as: 'values' | 'placeholders' = 'values'): SQL | undefined {
  const values = filterValues(q);
  const bound = (name: (typeof FILTERS)[number]) => (as === 'values' ? values[name] : sql.placeholder(name));
  const o = salesOrders;
  return and(
    q.customerId === undefined ? undefined : sql`${o.customerId} = ${bound('customerId')}`,
    q.status === undefined ? undefined : sql`${o.status} = ${bound('status')}`,
    q.createdFrom === undefined ? undefined : sql`${o.createdAt} >= ${bound('createdFrom')}::timestamptz`,
    q.createdTo === undefined ? undefined : sql`${o.createdAt} < ${bound('createdTo')}::timestamptz`,
    q.email === undefined ? undefined : sql`lower(${o.email}) = lower(${bound('email')})`,
    q.number === undefined ? undefined : sql`${o.number} = ${bound('number')}`,
    q.paymentStatus === undefined ? undefined : sql`${o.paymentStatus} = ${bound('paymentStatus')}`,
    // Compared as numeric, so the decimal is taken exactly, whatever its digits.
    q.totalAbove === undefined ? undefined : sql`${o.total} > ${bound('totalAbove')}::numeric * 100`,
  );
}

/** Which filters a query uses, as a short name suffix: one named statement per combination. */
function filterShape(q: OrderFilter): string {
  return FILTERS.reduce((mask, name, i) => (q[name] === undefined ? mask : mask | (1 << i)), 0).toString(36);
}

/** An order of the list's page with its lines, history, shipments and returns. */
export type PagedOrder = SalesOrderRow & AfterOrder & { lines: SalesOrderLineRow[] };

/**
 * A page of orders, newest first, each with its lines and what happened after it, and how many
 * match; counting never loads the rows. Both are named statements (planned once per filter
 * combination) and run side by side.
 */
export async function pageOrders(db: Db, q: OrderPageQuery): Promise<{ rows: PagedOrder[]; total: number }> {
  const shape = filterShape(q);
  const values = { ...filterValues(q), limit: q.limit, offset: q.offset };
  // Qualified by hand: drizzle leaves the columns of a one-table select unqualified.
  const orderId = sql.raw('"sales_order"."id"');
  const [rows, counted] = await Promise.all([
    run(
      db,
      `order_page_${shape}`,
      (on) =>
        on
          .select({
            ...getTableColumns(salesOrders),
            lines: sql<SalesOrderLineRow[]>`coalesce((select ${LINES_JSON} from sales_order_line l
              where l.order_id = ${orderId}), '[]')`,
            ...afterOrderColumns(orderId),
          })
          .from(salesOrders)
          .where(orderConditions(q, 'placeholders'))
          // Newest first by time, then id: with a status filter the (status, created_at) index gives
          // the order directly, so the generic plan reads one page, not every match and a sort.
          .orderBy(desc(salesOrders.createdAt), desc(salesOrders.id))
          .limit(sql.placeholder('limit'))
          .offset(sql.placeholder('offset')),
      values,
    ),
    run(
      db,
      `order_count_${shape}`,
      (on) =>
        on
          .select({ n: sql<number>`count(*)::int` })
          .from(salesOrders)
          .where(orderConditions(q, 'placeholders')),
      values,
    ),
  ]);
  return {
    rows: rows.map((row) => ({ ...row, ...afterOrderOf(row) })),
    total: counted[0]?.n ?? 0,
  };
}

export async function setStatus(db: Db, id: number, status: OrderStatus): Promise<SalesOrderRow> {
  const [row] = await db
    .update(salesOrders)
    .set({ status, updatedAt: sql`now()` })
    .where(eq(salesOrders.id, id))
    .returning();
  return row;
}

/** Stores a payment state decided by payment-states.ts; `paidNow` stamps the moment it was paid. */
export async function setPayment(
  db: Db,
  orderId: number,
  state: PaymentState,
  paidNow: boolean,
): Promise<SalesOrderRow> {
  const [row] = await db
    .update(salesOrders)
    .set({
      paymentStatus: state.status,
      paidAmount: state.paidCents,
      refundedAmount: state.refundedCents,
      ...(paidNow ? { paidAt: sql`now()` } : {}),
      updatedAt: sql`now()`,
    })
    .where(eq(salesOrders.id, orderId))
    .returning();
  return row;
}

// Idempotency keys: the row is inserted inside the order's transaction, so the unique (scope, key)
// makes a concurrent duplicate wait for the first to commit (then replay it) or roll back (then run).

export interface StoredAnswer {
  requestHash: string;
  status: number;
  response: unknown;
}

/** Claims a key; false when it is taken (by a committed request: read it with findIdempotencyKey). */
export async function claimIdempotencyKey(
  db: Db,
  scope: string,
  key: string,
  requestHash: string,
): Promise<boolean> {
  const rows = await db
    .insert(idempotencyKeys)
    .values({ scope, key, requestHash, status: 0, response: {} })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  return rows.length === 1;
}

export async function storeIdempotentAnswer(
  db: Db,
  scope: string,
  key: string,
  status: number,
  response: unknown,
): Promise<void> {
  await db
    .update(idempotencyKeys)
    .set({ status, response })
    .where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)));
}

export async function findIdempotencyKey(
  db: Db,
  scope: string,
  key: string,
): Promise<StoredAnswer | undefined> {
  const rows = await db
    .select({
      requestHash: idempotencyKeys.requestHash,
      status: idempotencyKeys.status,
      response: idempotencyKeys.response,
    })
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)))
    .limit(1);
  return rows[0];
}
