import { type SQL, sql } from 'drizzle-orm';
import type { SalesOrderLineRow, SalesOrderRow, salesOrderLines, salesOrders } from './order.tables.ts';

// The writes of a new order as SQL fragments: place-order (src/modules/checkout) runs them in ONE
// statement with the cart's and the outbox's fragments (data-modifying CTEs), a round trip per order
// less. Plain SQL: they run in every order's transaction, where the query builder's CPU would cost
// more than the insert itself. Values are cast where PostgreSQL cannot infer them (the VALUES list).

export type NewOrder = typeof salesOrders.$inferInsert;
export type NewOrderLine = Omit<typeof salesOrderLines.$inferInsert, 'orderId'>;

export interface StoredOrder {
  order: SalesOrderRow;
  lines: SalesOrderLineRow[];
}

/** The lines `l` (of sales_order_line) as one JSON array of SalesOrderLineRow, in line order. */
export const LINES_JSON = sql`json_agg(json_build_object('id', l.id, 'orderId', l.order_id, 'productId', l.product_id,
    'variantId', l.variant_id, 'sku', l.sku, 'options', l.options, 'name', l.name, 'unitPrice', l.unit_price,
    'qty', l.qty, 'vatRate', l.vat_rate::float8, 'lineTotal', l.line_total, 'giftId', l.gift_id) order by l.id)`;

const json = (value: unknown) => sql`${JSON.stringify(value)}::jsonb`;

/** Inserts the order, returning its row (`returning *`). */
export function insertOrderSql(order: NewOrder): SQL {
  // The locale: the one the request asked for, else the customer's own.
  const locale = sql`coalesce(${order.locale ?? null}::text,
        (select c.locale from customer c where c.id = ${order.customerId ?? null}::int))`;
  return sql`insert into sales_order (customer_id, email, status, currency, total, totals, address, vat_breakdown,
        coupon_id, coupon_code, points_spent, transport_id, transport_name, pay_way, gift_packaging, vat_id,
        shipping_rate, locale)
      values (${order.customerId ?? null}::int, ${order.email}, ${order.status ?? 'pending'}, ${order.currency},
        ${order.total}::int, ${json(order.totals)}, ${json(order.address)}, ${json(order.vatBreakdown)},
        ${order.couponId ?? null}::int, ${order.couponCode ?? null}::text, ${order.pointsSpent ?? 0}::int,
        ${order.transportId ?? null}::int, ${order.transportName ?? null}::text, ${order.payWay ?? null}::text,
        ${order.giftPackaging ?? false}::boolean, ${order.vatId ?? null}::text,
        ${order.shippingRate ? json(order.shippingRate) : null}::jsonb, ${locale})
      returning *`;
}

/** Inserts the lines of the order the relation `order` holds (the CTE of insertOrderSql), returning them. */
export function insertOrderLinesSql(order: SQL, lines: readonly NewOrderLine[]): SQL {
  const values = sql.join(
    lines.map(
      (l) =>
        sql`(${l.productId}::int, ${l.variantId ?? null}::int, ${l.sku}::text, ${json(l.options ?? {})},
             ${l.name}::text, ${l.unitPrice}::int, ${l.qty}::int,
             ${l.vatRate}::numeric, ${l.lineTotal}::int, ${l.giftId ?? null}::int)`,
    ),
    sql`, `,
  );
  return sql`insert into sales_order_line (order_id, product_id, variant_id, sku, options, name, unit_price, qty,
        vat_rate, line_total, gift_id)
      select o.id, v.* from ${order} o cross join (values ${values})
        as v(product_id, variant_id, sku, options, name, unit_price, qty, vat_rate, line_total, gift_id)
      returning *`;
}

/** The payload of `order.placed` (docs/events.md) as a jsonb expression over the order relation `order`. */
export function orderPlacedPayloadSql(order: SQL): SQL {
  return sql`jsonb_build_object('orderId', ${order}.id, 'number', ${order}.number, 'customerId', ${order}.customer_id,
    'total', ${order}.total, 'currency', ${order}.currency)`;
}

/** The answer of the statement: the order row of `order` with the lines of `lines`, as StoredOrderRow. */
export function storedOrderSql(order: SQL, lines: SQL): SQL {
  return sql`select o.id, o.number, o.customer_id as "customerId", o.email, o.status, o.currency, o.total, o.totals,
      o.address, o.vat_breakdown as "vatBreakdown", o.coupon_id as "couponId", o.coupon_code as "couponCode",
      o.points_spent as "pointsSpent", o.transport_id as "transportId", o.transport_name as "transportName",
      o.pay_way as "payWay", o.gift_packaging as "giftPackaging", o.vat_id as "vatId",
      o.shipping_rate as "shippingRate", o.payment_status as "paymentStatus",
      o.paid_amount as "paidAmount", o.refunded_amount as "refundedAmount", o.paid_at as "paidAt",
      o.created_at as "createdAt", o.updated_at as "updatedAt",
      (select ${LINES_JSON} from ${lines} l) as lines
    from ${order} o`;
}

/** A row of storedOrderSql as the engine answers it (timestamps as Date or text). */
export interface StoredOrderRow extends Omit<SalesOrderRow, 'createdAt' | 'updatedAt'> {
  createdAt: Date | string;
  updatedAt: Date | string;
  lines: SalesOrderLineRow[] | null;
}

const asDate = (value: Date | string) => (value instanceof Date ? value : new Date(value));

export function storedOrderOf(row: StoredOrderRow): StoredOrder {
  const { lines, createdAt, updatedAt, ...order } = row;
  return {
    order: { ...order, createdAt: asDate(createdAt), updatedAt: asDate(updatedAt) },
    lines: lines ?? [],
  };
}
