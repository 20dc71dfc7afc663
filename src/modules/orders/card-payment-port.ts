import type { Db } from '../../db/client.ts';
import type { OrderPaymentPort } from '../payments/webhook.service.ts';
import { setPayment } from './order.repo.ts';
import { findOrder } from './order.repo.ts';
import { announcePaid, paymentStateOf } from './payments.ts';
import { movePayment } from './payment-states.ts';

// The order's side of a card provider's event (docs/payments.md): the payments module decides
// what the event means; this moves the order's own payment state by the same machine as every
// other payment (payment-states.ts). No admin acts, so nothing is audited.

export const orderPaymentPort: OrderPaymentPort = {
  async lockOrder(tx, orderId) {
    const order = await findOrder(tx, orderId, undefined, true);
    if (!order) return undefined;
    return {
      status: order.status,
      paymentStatus: order.paymentStatus,
      total: order.total,
      currency: order.currency,
    };
  },
  async apply(tx, orderId, decision) {
    if (decision.kind === 'refund_late') return recordLateRefund(tx, orderId);
    if (decision.kind !== 'paid' && decision.kind !== 'authorized') return;
    const order = await findOrder(tx, orderId);
    if (!order) return;
    const outcome = movePayment(paymentStateOf(order), { kind: decision.kind });
    if (!outcome.ok) return;
    const updated = await setPayment(tx, orderId, outcome.state, decision.kind === 'paid');
    if (decision.kind === 'paid') await announcePaid(tx, updated);
  },
};

/**
 * Money that arrived for an order already cancelled (it waited too long) is given back at once by
 * the payments module; the order keeps the trace: paid and refunded in full, no order.paid.
 */
async function recordLateRefund(tx: Db, orderId: number): Promise<void> {
  const order = await findOrder(tx, orderId);
  if (!order) return;
  const paid = movePayment(paymentStateOf(order), { kind: 'paid' });
  if (!paid.ok) return;
  const refunded = movePayment(paid.state, { kind: 'refund', amountCents: paid.state.paidCents });
  if (refunded.ok) await setPayment(tx, orderId, refunded.state, true);
}
