import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { Caller } from '../../http/access.ts';
import { AppError } from '../../http/errors.ts';
import { appliedPageSize, paginationOf } from '../../resources/pagination.ts';
import { scopeOf } from '../../resources/types.ts';
import { returnCouponUse, returnStock } from './reservations.repo.ts';
import { recordEvent } from '../events/outbox.ts';
import { changePoints, insertLedgerEntry } from '../loyalty/loyalty.repo.ts';
import { getSetting } from '../settings/settings.service.ts';
import { orderJson } from './order-json.ts';
import { type OrderStatus, transition } from './order-states.ts';
import { deleteRedemption, findOrder, linesOf, linesOfOrders, pageOrders, setStatus } from './order.repo.ts';
import type { OrderJsonType } from './order.schemas.ts';
import type { SalesOrderRow } from './order.tables.ts';

export interface OrderDeps {
  db: Db;
  config: Config;
}

/** A customer sees only their own orders (the filter is in SQL); the back office sees all. */
function ownerFilter(caller: Caller): number | undefined {
  return caller.kind === 'customer' ? caller.customerId : undefined;
}

export async function listOrders(
  deps: OrderDeps,
  caller: Caller,
  query: { page?: number; limit?: number; status?: OrderStatus },
) {
  const scope = scopeOf(caller);
  const ceiling = scope === 'backend' ? 0 : await getSetting(deps.db, deps.config, 'rest_max_page_size');
  const perPage = appliedPageSize(query.limit ?? 0, scope, ceiling);
  const page = query.page ?? 1;
  const { rows, total } = await pageOrders(deps.db, {
    customerId: ownerFilter(caller),
    status: query.status,
    limit: perPage,
    offset: (page - 1) * perPage,
  });
  const lines = await linesOfOrders(
    deps.db,
    rows.map((r) => r.id),
  );
  return {
    success: true as const,
    data: rows.map((r) => orderJson(r, lines.get(r.id) ?? [])),
    pagination: paginationOf(page, perPage, total),
  };
}

export async function showOrder(deps: OrderDeps, caller: Caller, id: number): Promise<OrderJsonType> {
  const row = await findOrder(deps.db, id, ownerFilter(caller));
  if (!row) throw new AppError('NOT_FOUND', `no order ${id}`);
  return orderJson(row, await linesOf(deps.db, id));
}

/**
 * Gives back what the order took: points first (the customer row), then stock in product id order,
 * then the coupon use — the same lock order as place-order (customer, products, coupon), so a cancel
 * and an order never wait on each other in a circle. A balance or a stock pushed past its int4
 * column fails the statement: the whole transition rolls back (422 from handleError).
 */
async function releaseReservations(tx: Db, order: SalesOrderRow, actor: string): Promise<void> {
  if (order.customerId !== null && order.pointsSpent > 0) {
    await changePoints(tx, order.customerId, order.pointsSpent);
    await insertLedgerEntry(tx, {
      customerId: order.customerId,
      delta: order.pointsSpent,
      reason: 'returned',
      orderId: order.id,
      actor,
    });
  }
  const units = new Map<number, number>();
  for (const l of await linesOf(tx, order.id)) units.set(l.productId, (units.get(l.productId) ?? 0) + l.qty);
  for (const [productId, qty] of [...units.entries()].sort((a, b) => a[0] - b[0])) {
    await returnStock(tx, productId, qty);
  }
  if (order.couponId !== null) {
    await returnCouponUse(tx, order.couponId);
    await deleteRedemption(tx, order.id);
  }
}

/** Moves an order along its life cycle (order-states.ts) on the locked row; anything else is a 409. */
export async function transitionOrder(
  deps: OrderDeps,
  id: number,
  to: OrderStatus,
  actor: string,
): Promise<OrderJsonType> {
  return deps.db.transaction(async (tx) => {
    const order = await findOrder(tx, id, undefined, true);
    if (!order) throw new AppError('NOT_FOUND', `no order ${id}`);
    const outcome = transition(order.status, to);
    if (!outcome.ok) throw new AppError('ILLEGAL_TRANSITION', outcome.reason);
    if (outcome.effects.releaseReservations) await releaseReservations(tx, order, actor);
    const updated = await setStatus(tx, id, to);
    await recordEvent(tx, 'order.status_changed', {
      orderId: id,
      number: order.number,
      from: order.status,
      to,
      actor,
    });
    if (to === 'cancelled')
      await recordEvent(tx, 'order.cancelled', { orderId: id, number: order.number, actor });
    return orderJson(updated, await linesOf(tx, id));
  });
}
