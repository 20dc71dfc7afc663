import { and, asc, desc, eq, getTableColumns, type SQL, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client.ts';
import { run } from '../../db/statements.ts';
import { type AfterOrder, afterOrderColumns, afterOrderOf } from './after-order.repo.ts';
import { couponRedemptions } from '../promotions/promotions.tables.ts';
import type { OrderStatus } from './order-states.ts';
import type { PaymentStatus } from './payment-states.ts';
import {
  idempotencyKeys,
  type SalesOrderLineRow,
  type SalesOrderRow,
  salesOrderLines,
  salesOrders,
} from './order.tables.ts';

export type NewOrder = typeof salesOrders.$inferInsert;
export type NewOrderLine = Omit<typeof salesOrderLines.$inferInsert, 'orderId'>;

export interface StoredOrder {
  order: SalesOrderRow;
  lines: SalesOrderLineRow[];
}

interface InsertedOrderRow extends Omit<SalesOrderRow, 'createdAt' | 'updatedAt'> {
  createdAt: Date | string;
  updatedAt: Date | string;
  lines: SalesOrderLineRow[];
}

const asDate = (value: Date | string) => (value instanceof Date ? value : new Date(value));

/** The lines `l` (of sales_order_line) as one JSON array of SalesOrderLineRow, in line order. */
const LINES_JSON = sql`json_agg(json_build_object('id', l.id, 'orderId', l.order_id, 'productId', l.product_id,
    'variantId', l.variant_id, 'sku', l.sku, 'options', l.options, 'name', l.name, 'unitPrice', l.unit_price,
    'qty', l.qty, 'vatRate', l.vat_rate::float8, 'lineTotal', l.line_total, 'giftId', l.gift_id) order by l.id)`;

/**
 * Writes the order and its lines, empties the cart it came from (lines deleted, coupon cleared) and
 * records the order.placed outbox event (src/modules/outbox; its payload is built here, from the
 * inserted row) in ONE statement (data-modifying CTEs), answering order and lines. Plain SQL:
 * place-order runs it in every order's transaction, where the query builder's CPU would cost more
 * than the insert itself. Values are cast where PostgreSQL cannot infer them (the VALUES list).
 */
export async function insertOrder(
  db: Db,
  order: NewOrder,
  lines: NewOrderLine[],
  fromCartId: number,
): Promise<StoredOrder> {
  const json = (value: unknown) => sql`${JSON.stringify(value)}::jsonb`;
  const values = sql.join(
    lines.map(
      (l) =>
        sql`(${l.productId}::int, ${l.variantId ?? null}::int, ${l.sku}::text, ${json(l.options ?? {})},
             ${l.name}::text, ${l.unitPrice}::int, ${l.qty}::int,
             ${l.vatRate}::numeric, ${l.lineTotal}::int, ${l.giftId ?? null}::int)`,
    ),
    sql`, `,
  );
  const [row] = await queryRows<InsertedOrderRow>(
    db,
    sql`with o as (
      insert into sales_order (customer_id, email, status, currency, total, totals, address, vat_breakdown,
        coupon_id, coupon_code, points_spent, transport_id, transport_name, pay_way, gift_packaging)
      values (${order.customerId ?? null}::int, ${order.email}, ${order.status ?? 'pending'}, ${order.currency},
        ${order.total}::int, ${json(order.totals)}, ${json(order.address)}, ${json(order.vatBreakdown)},
        ${order.couponId ?? null}::int, ${order.couponCode ?? null}::text, ${order.pointsSpent ?? 0}::int,
        ${order.transportId ?? null}::int, ${order.transportName ?? null}::text, ${order.payWay ?? null}::text,
        ${order.giftPackaging ?? false}::boolean)
      returning *
    ), l as (
      insert into sales_order_line (order_id, product_id, variant_id, sku, options, name, unit_price, qty,
        vat_rate, line_total, gift_id)
      select o.id, v.* from o cross join (values ${values})
        as v(product_id, variant_id, sku, options, name, unit_price, qty, vat_rate, line_total, gift_id)
      returning *
    ), emptied as (
      delete from cart_line where cart_id = ${fromCartId}
    ), uncouponed as (
      update cart set coupon_code = null where id = ${fromCartId} and coupon_code is not null
    ), placed as (
      insert into outbox_event (type, payload)
      select 'order.placed', jsonb_build_object('orderId', o.id, 'number', o.number, 'customerId', o.customer_id,
        'total', o.total, 'currency', o.currency)
      from o
    )
    select o.id, o.number, o.customer_id as "customerId", o.email, o.status, o.currency, o.total, o.totals,
      o.address, o.vat_breakdown as "vatBreakdown", o.coupon_id as "couponId", o.coupon_code as "couponCode",
      o.points_spent as "pointsSpent", o.transport_id as "transportId", o.transport_name as "transportName",
      o.pay_way as "payWay", o.gift_packaging as "giftPackaging", o.payment_status as "paymentStatus",
      o.paid_amount as "paidAmount", o.refunded_amount as "refundedAmount", o.paid_at as "paidAt",
      o.created_at as "createdAt",
      o.updated_at as "updatedAt",
      (select ${LINES_JSON} from l) as lines
    from o`,
  );
  const { lines: stored, createdAt, updatedAt, ...rest } = row;
  return {
    order: { ...rest, createdAt: asDate(createdAt), updatedAt: asDate(updatedAt) },
    lines: stored ?? [],
  };
}

export async function linesOf(db: Db, orderId: number): Promise<SalesOrderLineRow[]> {
  return db
    .select()
    .from(salesOrderLines)
    .where(eq(salesOrderLines.orderId, orderId))
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
          .limit(sql.placeholder('limit') as unknown as number)
          .offset(sql.placeholder('offset') as unknown as number),
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

export async function insertRedemption(
  db: Db,
  r: { couponId: number; orderId: number; customerId: number | null; email: string },
): Promise<void> {
  await db.insert(couponRedemptions).values({ ...r, email: r.email.toLowerCase() });
}

export async function deleteRedemption(db: Db, orderId: number): Promise<void> {
  await db.delete(couponRedemptions).where(eq(couponRedemptions.orderId, orderId));
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
