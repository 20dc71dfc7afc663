import { releasePromotionUses } from '../promotions/promotion.repo.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { Caller } from '../../http/access.ts';
import { AppError } from '../../http/errors.ts';
import { appliedPageSize, paginationOf, scopeOf } from '../../resources/index.ts';
import { recordAudit } from '../audit/audit.ts';
import { cardPaymentOf, cardPaymentsOf } from '../payments/card-payments.ts';
import { voidCardPayment } from '../payments/card-moves.ts';
import { recordEvent } from '../outbox/outbox.ts';
import { changeLoyaltyPoints } from '../customers/customer.repo.ts';
import { insertLedgerEntry } from '../loyalty/loyalty.repo.ts';
import { getSetting } from '../settings/settings.service.ts';
import { afterOrdersOf, insertStatusChange } from './after-order.repo.ts';
import { actorLabel, actorName, type OrderActor } from './order-actor.ts';
import { orderJson } from './order-json.ts';
import { type OrderStatus, transition } from './order-states.ts';
import { releaseLinesStock } from '../catalog/stock.repo.ts';
import { deleteRedemption, releaseCouponUse } from '../promotions/promotions.repo.ts';
import { findOrder, linesOf, type OrderFilter, pageOrders, setStatus } from './order.repo.ts';
import type { OrderJsonType } from './order.schemas.ts';
import type { SalesOrderRow } from './order.tables.ts';
import { applyPayment, paymentStateOf } from './payments.ts';
import { refundable } from './payment-states.ts';
import { okList } from '../../http/envelope.ts';

export interface OrderDeps {
  db: Db;
  config: Config;
}

/** A customer sees only their own orders (the filter is in SQL); the back office sees all. */
function ownerFilter(caller: Caller): number | undefined {
  return caller.kind === 'customer' ? caller.customerId : undefined;
}

// Not the resource list path: an order answers its lines and after-order state (orderJson), not one table's fields.
export async function listOrders(
  deps: OrderDeps,
  caller: Caller,
  query: Omit<OrderFilter, 'customerId'> & { page?: number; limit?: number },
) {
  const scope = scopeOf(caller);
  const ceiling = scope === 'backend' ? 0 : await getSetting(deps.db, deps.config, 'rest_max_page_size');
  const perPage = appliedPageSize(query.limit ?? 0, scope, ceiling);
  const page = query.page ?? 1;
  const { page: _p, limit: _l, ...filters } = query;
  const { rows, total } = await pageOrders(deps.db, {
    ...filters,
    customerId: ownerFilter(caller),
    limit: perPage,
    offset: (page - 1) * perPage,
  });
  const cardIds = rows.filter((r) => r.payWay === 'card').map((r) => r.id);
  const payments = await cardPaymentsOf(deps.db, cardIds);
  return okList(
    rows.map((r) => withPayment(orderJson(r, r.lines, r, scope === 'backend'), payments.get(r.id))),
    paginationOf(page, perPage, total),
  );
}

/** An order as its reader sees it: lines, history, shipments, returns, and its card payment. */
export async function orderAnswer(db: Db, row: SalesOrderRow, backend: boolean): Promise<OrderJsonType> {
  const after = await afterOrdersOf(db, [row.id]);
  const json = orderJson(row, await linesOf(db, row.id), after.get(row.id), backend);
  return withPayment(json, row.payWay === 'card' ? await cardPaymentOf(db, row.id) : undefined);
}

function withPayment(json: OrderJsonType, payment: OrderJsonType['payment']): OrderJsonType {
  return payment ? { ...json, payment } : json;
}

export async function showOrder(deps: OrderDeps, caller: Caller, id: number): Promise<OrderJsonType> {
  const row = await findOrder(deps.db, id, ownerFilter(caller));
  if (!row) throw new AppError('NOT_FOUND', `no order ${id}`);
  return orderAnswer(deps.db, row, caller.kind === 'admin');
}

/**
 * Gives back what the order took: points first (the customer row), then stock in product id order,
 * then the coupon use — the same lock order as place-order (customer, products, coupon), so a cancel
 * and an order never wait on each other in a circle. A balance or a stock pushed past its int4
 * column fails the statement: the whole transition rolls back (422 from handleError).
 */
async function releaseReservations(tx: Db, order: SalesOrderRow, actor: string): Promise<void> {
  if (order.customerId !== null && order.pointsSpent > 0) {
    await changeLoyaltyPoints(tx, order.customerId, order.pointsSpent);
    await insertLedgerEntry(tx, {
      customerId: order.customerId,
      delta: order.pointsSpent,
      reason: 'returned',
      orderId: order.id,
      actor,
    });
  }
  await releaseLinesStock(tx, await linesOf(tx, order.id));
  if (order.couponId !== null) {
    await releaseCouponUse(tx, order.couponId);
    await deleteRedemption(tx, order.id);
  }
  await releasePromotionUses(tx, order.id);
}

export interface Move {
  to: OrderStatus;
  actor: OrderActor;
  reason?: string;
  /** Added to the order.status_changed payload (a shipment's tracking). */
  details?: Record<string, unknown>;
}

/**
 * Moves a locked order along its life cycle (order-states.ts), in the caller's transaction, with
 * everything the move implies: a cancel gives back what the order took and refunds what was paid;
 * a cash-on-delivery order is paid when it is delivered; the move is kept in the status history,
 * in the audit log when an admin made it, and announced by order.status_changed.
 */
export async function moveOrder(
  tx: Db,
  config: Config,
  order: SalesOrderRow,
  move: Move,
): Promise<SalesOrderRow> {
  const outcome = transition(order.status, move.to);
  if (!outcome.ok) throw new AppError('ILLEGAL_TRANSITION', outcome.reason);
  const name = actorName(move.actor);
  let current = order;
  if (outcome.effects.releaseReservations) {
    await releaseReservations(tx, order, name);
    const left = refundable(paymentStateOf(order));
    if (left > 0)
      current = await applyPayment(tx, config, current, { kind: 'refund', amountCents: left }, move.actor);
    if (order.payWay === 'card') await voidCardPayment(tx, config, order.id);
  }
  if (move.to === 'delivered' && order.payWay === 'delivery' && order.paymentStatus === 'pending') {
    current = await applyPayment(tx, config, current, { kind: 'paid' }, move.actor, 'cash on delivery');
  }
  const updated = await setStatus(tx, order.id, move.to);
  const reason = move.reason ?? null;
  await insertStatusChange(tx, {
    orderId: order.id,
    from: order.status,
    to: move.to,
    actor: actorLabel(move.actor),
    reason,
  });
  if (move.actor.kind === 'admin') {
    await recordAudit(tx, {
      actor: move.actor.sub,
      action: 'transition',
      entity: 'order',
      entityId: order.id,
      changes: {
        status: { before: order.status, after: move.to },
        ...(reason ? { reason: { before: null, after: reason } } : {}),
      },
    });
  }
  await recordEvent(tx, 'order.status_changed', {
    orderId: order.id,
    number: order.number,
    from: order.status,
    to: move.to,
    actor: name,
    reason,
    ...move.details,
  });
  if (move.to === 'cancelled')
    await recordEvent(tx, 'order.cancelled', {
      orderId: order.id,
      number: order.number,
      actor: name,
      reason,
    });
  return updated;
}

/** Locks the order for a change; 404 when it is not there (or not the customer's own). */
export async function lockedOrder(tx: Db, id: number, customerId?: number): Promise<SalesOrderRow> {
  const order = await findOrder(tx, id, customerId, true);
  if (!order) throw new AppError('NOT_FOUND', `no order ${id}`);
  return order;
}

/** A back-office move, optionally with a reason; anything the life cycle forbids is a 409. */
export async function transitionOrder(
  deps: OrderDeps,
  id: number,
  to: OrderStatus,
  actor: OrderActor,
  reason?: string,
): Promise<OrderJsonType> {
  return deps.db.transaction(async (tx) => {
    const order = await lockedOrder(tx, id);
    return orderAnswer(tx, await moveOrder(tx, deps.config, order, { to, actor, reason }), true);
  });
}

/**
 * Cancels an order: a customer their own and only while it is `pending` (nothing has been prepared
 * yet); the back office any order the life cycle lets it cancel.
 */
export async function cancelOrder(
  deps: OrderDeps,
  id: number,
  actor: OrderActor,
  reason?: string,
): Promise<OrderJsonType> {
  return deps.db.transaction(async (tx) => {
    const customerId = actor.kind === 'customer' ? actor.customerId : undefined;
    const order = await lockedOrder(tx, id, customerId);
    if (actor.kind === 'customer' && order.status !== 'pending') {
      throw new AppError(
        'ILLEGAL_TRANSITION',
        `a customer cancels only a pending order; this one is ${order.status}`,
      );
    }
    const moved = await moveOrder(tx, deps.config, order, { to: 'cancelled', actor, reason });
    return orderAnswer(tx, moved, actor.kind === 'admin');
  });
}

/**
 * Records that the money arrived (a bank transfer or a card payment confirmed by the back office).
 * A cancelled order takes no payment: what it took was given back.
 */
export async function markPaid(
  deps: OrderDeps,
  id: number,
  actor: OrderActor,
  reference?: string,
): Promise<OrderJsonType> {
  return deps.db.transaction(async (tx) => {
    const order = await lockedOrder(tx, id);
    if (order.status === 'cancelled') {
      throw new AppError('ILLEGAL_TRANSITION', 'payment: a cancelled order is not paid');
    }
    const paid = await applyPayment(tx, deps.config, order, { kind: 'paid' }, actor, reference);
    return orderAnswer(tx, paid, true);
  });
}
