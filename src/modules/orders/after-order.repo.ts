import { eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { statement } from '../../db/statements.ts';
import type { OrderStatus } from './order-states.ts';
import { orderReturnLines, orderReturns, orderStatusChanges, shipments } from './after-order.tables.ts';

// What happened to orders after place-order: history, shipments, returns (after-order.tables.ts).

export interface AfterOrder {
  history: { from: OrderStatus; to: OrderStatus; at: string; by: string; reason: string | null }[];
  shipments: { carrier: string; trackingNumber: string; trackingUrl: string | null; at: string }[];
  returns: {
    id: number;
    /** Cents. */
    amount: number;
    points: number;
    restock: boolean;
    reason: string | null;
    at: string;
    lines: { orderLineId: number; qty: number; amount: number; points: number }[];
  }[];
}

const iso = (value: string) => new Date(value).toISOString();

/**
 * History, shipments and returns of the order whose id `orderId` names, as JSON columns: for one
 * statement over several orders (afterOrdersOf) or inside the order list's page.
 */
export function afterOrderColumns(orderId: SQL) {
  return {
    history: sql<AfterOrder['history']>`coalesce((select json_agg(json_build_object('from', h.from_status,
          'to', h.to_status, 'at', h.created_at, 'by', h.actor, 'reason', h.reason) order by h.id)
        from order_status_change h where h.order_id = ${orderId}), '[]')`,
    shipments: sql<AfterOrder['shipments']>`coalesce((select json_agg(json_build_object('carrier', s.carrier,
          'trackingNumber', s.tracking_number, 'trackingUrl', s.tracking_url, 'at', s.created_at) order by s.id)
        from shipment s where s.order_id = ${orderId}), '[]')`,
    returns: sql<
      AfterOrder['returns']
    >`coalesce((select json_agg(json_build_object('id', r.id, 'amount', r.amount,
          'points', r.points, 'restock', r.restock, 'reason', r.reason, 'at', r.created_at,
          'lines', (select json_agg(json_build_object('orderLineId', rl.order_line_id, 'qty', rl.qty,
              'amount', rl.amount, 'points', rl.points) order by rl.order_line_id)
            from order_return_line rl where rl.return_id = r.id)) order by r.id)
        from order_return r where r.order_id = ${orderId}), '[]')`,
  };
}

/** The JSON columns of afterOrderColumns as read, with their instants in ISO form. */
export function afterOrderOf(r: AfterOrder): AfterOrder {
  return {
    history: r.history.map((h) => ({ ...h, at: iso(h.at) })),
    shipments: r.shipments.map((s) => ({ ...s, at: iso(s.at) })),
    returns: r.returns.map((x) => ({ ...x, at: iso(x.at) })),
  };
}

const afterOfOrders = statement('order_after_of_orders', (db) =>
  db
    .select({ id: sql<number>`o.id`, ...afterOrderColumns(sql`o.id`) })
    .from(sql`unnest(${sql.placeholder('ids')}::int[]) as o(id)`),
);

/** History, shipments and returns of several orders in one named statement. */
export async function afterOrdersOf(db: Db, orderIds: readonly number[]): Promise<Map<number, AfterOrder>> {
  const byOrder = new Map<number, AfterOrder>();
  if (orderIds.length === 0) return byOrder;
  for (const r of await afterOfOrders(db, { ids: orderIds.map((id) => Math.trunc(id)) })) {
    byOrder.set(r.id, afterOrderOf(r));
  }
  return byOrder;
}

export async function insertStatusChange(
  db: Db,
  change: { orderId: number; from: OrderStatus; to: OrderStatus; actor: string; reason: string | null },
): Promise<void> {
  await db.insert(orderStatusChanges).values({
    orderId: change.orderId,
    fromStatus: change.from,
    toStatus: change.to,
    actor: change.actor,
    reason: change.reason,
  });
}

export async function insertShipment(
  db: Db,
  s: { orderId: number; carrier: string; trackingNumber: string; trackingUrl: string | null; actor: string },
): Promise<void> {
  await db.insert(shipments).values(s);
}

/** Units of each line of the order given back by earlier returns. */
export async function returnedUnits(db: Db, orderId: number): Promise<Map<number, number>> {
  const rows = await db
    .select({ lineId: orderReturnLines.orderLineId, qty: sql<number>`sum(${orderReturnLines.qty})::int` })
    .from(orderReturnLines)
    .innerJoin(orderReturns, eq(orderReturns.id, orderReturnLines.returnId))
    .where(eq(orderReturns.orderId, orderId))
    .groupBy(orderReturnLines.orderLineId);
  return new Map(rows.map((r) => [r.lineId, r.qty]));
}

export async function insertReturn(
  db: Db,
  r: {
    orderId: number;
    amount: number;
    points: number;
    restock: boolean;
    reason: string | null;
    actor: string;
  },
  lines: { orderLineId: number; qty: number; amount: number; points: number }[],
): Promise<number> {
  const [row] = await db.insert(orderReturns).values(r).returning({ id: orderReturns.id });
  await db.insert(orderReturnLines).values(lines.map((l) => ({ ...l, returnId: row.id })));
  return row.id;
}
