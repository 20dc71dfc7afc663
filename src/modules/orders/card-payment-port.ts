import { eq, type SQL, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client.ts';
import { preparedRows, statement } from '../../db/statements.ts';
import { recordEventSql } from '../outbox/outbox.ts';
import type { LockedOrderPayment, OrderPaymentPort } from '../payments/webhook.service.ts';
import { cardPayment } from '../payments/payments.tables.ts';
import { setPayment } from './order.repo.ts';
import { type SalesOrderRow, salesOrders } from './order.tables.ts';
import { paidEventPayload, paymentStateOf } from './payments.ts';
import { movePayment, type PaymentState } from './payment-states.ts';

// The order's side of a card provider's event (docs/payments.md): the payments module decides
// what the event means; this moves the order's own payment state by the same machine as every
// other payment (payment-states.ts). No admin acts, so nothing is audited. The webhook's
// transaction reads the order once, with its row locked, and pays it in one statement.

const lockOrderAndCard = statement('order_lock_paid_by', (db) =>
  db
    .select({ order: salesOrders, cardStatus: cardPayment.status })
    .from(salesOrders)
    .innerJoin(cardPayment, eq(cardPayment.orderId, salesOrders.id))
    .where(eq(cardPayment.intentId, sql.placeholder('intentId')))
    // Both rows locked, the order's first (the order of the FROM list): a waiting event then
    // reads the card payment as the event before it left it, not as it was when it started.
    .for('update'),
);

export const orderPaymentPort: OrderPaymentPort = {
  async lockOrderPaidBy(tx, intentId) {
    const [found] = await lockOrderAndCard(tx, { intentId });
    if (!found) return undefined;
    const { order } = found;
    const locked: LockedOrderPayment = {
      orderId: order.id,
      status: order.status,
      paymentStatus: order.paymentStatus,
      total: order.total,
      currency: order.currency,
      cardStatus: found.cardStatus,
      apply: async (decision, alongside) => {
        const outcome =
          decision.kind === 'paid' || decision.kind === 'authorized'
            ? movePayment(paymentStateOf(order), { kind: decision.kind })
            : undefined;
        if (decision.kind === 'paid' && outcome?.ok) return storePaid(tx, order, outcome.state, alongside);
        if (decision.kind === 'refund_late') await recordLateRefund(tx, order);
        if (decision.kind === 'authorized' && outcome?.ok) await setPayment(tx, order.id, outcome.state, false);
        if (alongside) await queryRows(tx, alongside);
      },
    };
    return locked;
  },
};

/** The order paid, its `order.paid` event and the card payment's change, in one statement. */
async function storePaid(tx: Db, order: SalesOrderRow, state: PaymentState, alongside?: SQL): Promise<void> {
  const payload = JSON.stringify(paidEventPayload({ ...order, paidAmount: state.paidCents }));
  const card = alongside ? sql`, card as (${alongside})` : sql``;
  await preparedRows(
    tx,
    'order_paid_by_card',
    sql`with paid as (
        update sales_order set payment_status = ${state.status}, paid_amount = ${state.paidCents},
          refunded_amount = ${state.refundedCents}, paid_at = now(), updated_at = now()
        where id = ${order.id} returning id)${card}
      ${recordEventSql('order.paid', sql`${payload}::jsonb`, sql`paid`)}`,
  );
}

/**
 * Money that arrived for an order already cancelled (it waited too long) is given back at once by
 * the payments module; the order keeps the trace: paid and refunded in full, no order.paid.
 */
async function recordLateRefund(tx: Db, order: SalesOrderRow): Promise<void> {
  const paid = movePayment(paymentStateOf(order), { kind: 'paid' });
  if (!paid.ok) return;
  const refunded = movePayment(paid.state, { kind: 'refund', amountCents: paid.state.paidCents });
  if (refunded.ok) await setPayment(tx, order.id, refunded.state, true);
}
