import type { Db } from '../../db/client.ts';
import { AppError, type ErrorDetail } from '../../http/errors.ts';
import { recordAudit } from '../audit/audit.ts';
import { releaseLinesStock } from '../catalog/stock.repo.ts';
import type { TotalsFigures } from '../pricing/totals-json.ts';
import { changeLoyaltyPoints } from '../customers/customer.repo.ts';
import { insertLedgerEntry } from '../loyalty/loyalty.repo.ts';
import { insertReturn, returnedUnits } from '../orders/after-order.repo.ts';
import { actorName, type AdminActor } from '../orders/order-actor.ts';
import { linesOf } from '../orders/order.repo.ts';
import { lockedOrder, type OrderDeps, orderAnswer } from '../orders/order.service.ts';
import type { OrderJsonType, ReturnBodyType } from '../orders/order.schemas.ts';
import type { SalesOrderLineRow, SalesOrderRow } from '../orders/order.tables.ts';
import { applyPayment } from '../orders/payments.ts';
import { type Refund, type RefundableOrder, refundFor } from './refunds.ts';

/**
 * The order as refunds.ts reads it. A free gift line was never paid for (its value is the quote's
 * giftDiscount), so it counts as a line worth nothing: returning it refunds nothing.
 */
export function refundableOrder(order: SalesOrderRow, lines: readonly SalesOrderLineRow[]): RefundableOrder {
  const figures = order.totals as TotalsFigures;
  // The cart promotions' shares per bought line, in the order's line order (docs/promotions.md):
  // a line is worth what was charged for it after them, and the coupon spreads over that.
  const promotions = figures.promotions ?? [];
  let bought = 0;
  const afterPromotions = (l: SalesOrderLineRow) => {
    const index = bought++;
    return l.lineTotal - promotions.reduce((sum, p) => sum + (p.lines[index] ?? 0), 0);
  };
  return {
    lines: lines.map((l) => ({ id: l.id, qty: l.qty, lineTotal: l.giftId === null ? afterPromotions(l) : 0 })),
    couponDiscount: figures.couponDiscount,
    pointsCash: figures.pointsCash,
    pointsSpent: order.pointsSpent,
  };
}

/** The request checked against the order: every line its own, once, with units left to return (else 422). */
function checkedReturn(
  body: ReturnBodyType,
  lines: readonly SalesOrderLineRow[],
  returned: Map<number, number>,
): { lineId: number; qty: number; alreadyReturned: number }[] {
  const problems: ErrorDetail[] = [];
  const seen = new Set<number>();
  const byId = new Map(lines.map((l) => [l.id, l]));
  body.lines.forEach(({ orderLineId, qty }, i) => {
    const field = `lines.${i}`;
    const line = byId.get(orderLineId);
    if (!line) problems.push({ field: `${field}.orderLineId`, message: 'is not a line of this order' });
    else if (seen.has(orderLineId))
      problems.push({ field: `${field}.orderLineId`, message: 'is named twice' });
    else if (qty > line.qty - (returned.get(orderLineId) ?? 0)) {
      const left = line.qty - (returned.get(orderLineId) ?? 0);
      problems.push({ field: `${field}.qty`, message: `only ${left} units are left to return` });
    }
    seen.add(orderLineId);
  });
  if (problems.length) throw new AppError('UNPROCESSABLE', 'the return does not fit the order', problems);
  return body.lines.map(({ orderLineId, qty }) => ({
    lineId: orderLineId,
    qty,
    alreadyReturned: returned.get(orderLineId) ?? 0,
  }));
}

/** Gives the returned units back to their variants, in the lock order of place-order. */
async function restock(tx: Db, lines: readonly SalesOrderLineRow[], refund: Refund): Promise<void> {
  const lineOf = new Map(lines.map((l) => [l.id, l]));
  await releaseLinesStock(
    tx,
    refund.lines.map((r) => {
      // biome-ignore lint/style/noNonNullAssertion: every returned line was matched to the order's lines above
      const line = lineOf.get(r.lineId)!;
      return { productId: line.productId, variantId: line.variantId, qty: r.qty };
    }),
  );
}

/** The points the returned units earned or spent come back to the customer, in the ledger too. */
async function givePointsBack(
  tx: Db,
  customerId: number,
  orderId: number,
  refund: Refund,
  actor: AdminActor,
): Promise<void> {
  if (refund.points <= 0) return;
  await changeLoyaltyPoints(tx, customerId, refund.points);
  await insertLedgerEntry(tx, {
    customerId,
    delta: refund.points,
    reason: 'returned',
    orderId,
    actor: actorName(actor),
  });
}

/** The return kept on the order, line by line, and in the audit log. */
async function keepReturn(
  tx: Db,
  orderId: number,
  body: ReturnBodyType,
  refund: Refund,
  actor: AdminActor,
): Promise<void> {
  const returnId = await insertReturn(
    tx,
    {
      orderId,
      amount: refund.amountCents,
      points: refund.points,
      restock: body.restock,
      reason: body.reason ?? null,
      actor: actor.sub,
    },
    refund.lines.map((l) => ({ orderLineId: l.lineId, qty: l.qty, amount: l.amountCents, points: l.points })),
  );
  await recordAudit(tx, {
    actor: actor.sub,
    action: 'return',
    entity: 'order',
    entityId: orderId,
    changes: {
      returns: {
        before: null,
        after: { returnId, lines: body.lines, restock: body.restock, points: refund.points },
      },
    },
  });
}

/**
 * A return of some units of a shipped or delivered order, in one transaction: the refund computed
 * by refunds.ts (each line's gross less its share of the coupon and the points' cash), the payment
 * moved by it (never past what was paid), the points given back in proportion, the stock when
 * asked, the return kept on the order and in the audit log.
 */
export async function returnLines(
  deps: OrderDeps,
  id: number,
  body: ReturnBodyType,
  actor: AdminActor,
): Promise<OrderJsonType> {
  return deps.db.transaction(async (tx) => {
    const order = await lockedOrder(tx, id);
    if (order.status !== 'shipped' && order.status !== 'delivered') {
      throw new AppError(
        'ILLEGAL_TRANSITION',
        `only shipped or delivered goods are returned; this order is ${order.status}`,
      );
    }
    const lines = await linesOf(tx, id);
    const wanted = checkedReturn(body, lines, await returnedUnits(tx, id));
    const refund = refundFor(refundableOrder(order, lines), wanted);
    let current = order;
    if (refund.amountCents > 0) {
      current = await applyPayment(
        tx,
        deps.config,
        order,
        { kind: 'refund', amountCents: refund.amountCents },
        actor,
      );
    }
    if (order.customerId !== null) await givePointsBack(tx, order.customerId, id, refund, actor);
    if (body.restock) await restock(tx, lines, refund);
    await keepReturn(tx, id, body, refund, actor);
    return orderAnswer(tx, current, true);
  });
}
