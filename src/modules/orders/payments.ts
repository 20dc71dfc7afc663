import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../http/errors.ts';
import { fromCents } from '../../lib/money.ts';
import { recordAudit } from '../audit/audit.ts';
import { recordEvent } from '../outbox/outbox.ts';
import { refundCardPayment } from '../payments/card-moves.ts';
import type { OrderActor } from './order-actor.ts';
import { setPayment } from './order.repo.ts';
import type { SalesOrderRow } from './order.tables.ts';
import { movePayment, type PaymentMove, type PaymentState } from './payment-states.ts';

// The payment machine (payment-states.ts) applied to a locked order row inside the caller's
// transaction: the decision is the pure function's, this file only stores it and audits it (money
// in the audit log as the API shows it, decimals).

export function paymentStateOf(order: SalesOrderRow): PaymentState {
  return {
    status: order.paymentStatus,
    dueCents: order.total,
    paidCents: order.paidAmount,
    refundedCents: order.refundedAmount,
  };
}

/**
 * Applies a payment move to the locked order; a refused move is 409 ILLEGAL_TRANSITION with the
 * reason. A refund of an order a card paid goes back to the card, through its provider.
 */
export async function applyPayment(
  tx: Db,
  config: Config,
  order: SalesOrderRow,
  move: PaymentMove,
  actor: OrderActor,
  note?: string,
): Promise<SalesOrderRow> {
  const before = paymentStateOf(order);
  const outcome = movePayment(before, move);
  if (!outcome.ok) throw new AppError('ILLEGAL_TRANSITION', `payment: ${outcome.reason}`);
  const updated = await setPayment(tx, order.id, outcome.state, move.kind === 'paid');
  if (move.kind === 'paid') await announcePaid(tx, updated);
  if (move.kind === 'refund' && order.payWay === 'card') {
    await refundCardPayment(tx, config, order.id, move.amountCents);
  }
  if (actor.kind === 'admin') {
    await recordAudit(tx, {
      actor: actor.sub,
      action: move.kind === 'paid' ? 'payment' : 'refund',
      entity: 'order',
      entityId: order.id,
      changes: {
        paymentStatus: { before: before.status, after: outcome.state.status },
        ...(move.kind === 'paid'
          ? { paid: { before: fromCents(before.paidCents), after: fromCents(outcome.state.paidCents) } }
          : {
              refunded: {
                before: fromCents(before.refundedCents),
                after: fromCents(outcome.state.refundedCents),
              },
            }),
        ...(note ? { note: { before: null, after: note } } : {}),
      },
    });
  }
  return updated;
}

/** order.paid, in the transaction that paid the order: the customer's "payment received" e-mail. */
export async function announcePaid(tx: Db, order: SalesOrderRow): Promise<void> {
  await recordEvent(tx, 'order.paid', paidEventPayload(order));
}

/** What `order.paid` says (docs/events.md). */
export function paidEventPayload(
  order: Pick<SalesOrderRow, 'id' | 'number' | 'paidAmount' | 'currency' | 'payWay'>,
): Record<string, unknown> {
  return {
    orderId: order.id,
    number: order.number,
    amount: order.paidAmount,
    currency: order.currency,
    payWay: order.payWay,
  };
}
