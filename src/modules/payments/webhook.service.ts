import { eq } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../http/errors.ts';
import { refundCardPayment } from './card-moves.ts';
import { type CardPaymentStatus, decideEvent, type EventDecision } from './payment-events.ts';
import { cardPayment, paymentEvent } from './payments.tables.ts';
import { type PaymentKeys, providerNamed } from './providers/index.ts';

// A provider's event, the one way an order learns how its card payment went (docs/payments.md):
// verified over the raw body, processed once per event id, decided against the order as it stands
// with its row locked, so concurrent events for one order leave one consistent payment.

/** What the payments module needs from the orders module; passed in by the module list. */
export interface OrderPaymentPort {
  /** Locks the order row and reads what a decision needs; undefined when there is no such order. */
  lockOrder(
    tx: Db,
    orderId: number,
  ): Promise<{ status: string; paymentStatus: string; total: number; currency: string } | undefined>;
  /** Carries a decision out on the locked order (paid, authorized). */
  apply(tx: Db, orderId: number, decision: EventDecision): Promise<void>;
}

export interface WebhookOutcome {
  received: true;
  duplicate: boolean;
}

export async function receivePaymentEvent(
  deps: { db: Db; config: Config; orders: OrderPaymentPort; keys: PaymentKeys },
  input: { provider: string; rawBody: string; signature: string | undefined; now: Date },
): Promise<WebhookOutcome> {
  const provider = providerNamed(input.provider, deps.config, deps.db, deps.keys);
  if (!provider) throw new AppError('NOT_FOUND', `no payment provider "${input.provider}" here`);
  const check = provider.verifyEvent(input.rawBody, input.signature, input.now);
  if (check !== 'valid') throw new AppError('PAYMENT_EVENT_INVALID', `the event's signature is ${check}`);
  const event = provider.parseEvent(input.rawBody);
  if (!event) return { received: true, duplicate: false };
  return deps.db.transaction(async (tx) => {
    const [first] = await tx
      .insert(paymentEvent)
      .values({ provider: provider.name, eventId: event.id, type: event.type, intentId: event.intentId })
      .onConflictDoNothing()
      .returning({ eventId: paymentEvent.eventId });
    if (!first) return { received: true, duplicate: true };
    const [known] = await tx
      .select({ orderId: cardPayment.orderId })
      .from(cardPayment)
      .where(eq(cardPayment.intentId, event.intentId));
    if (!known) return { received: true, duplicate: false };
    // The order row first, then the payment's: every path that moves an order's payment locks in
    // this order, so two events for one order queue up instead of deciding on the same state.
    const order = await deps.orders.lockOrder(tx, known.orderId);
    const [payment] = await tx
      .select()
      .from(cardPayment)
      .where(eq(cardPayment.orderId, known.orderId))
      .for('update');
    if (!order || !payment) return { received: true, duplicate: false };
    const decision = decideEvent(
      {
        orderStatus: order.status,
        paymentStatus: order.paymentStatus,
        cardStatus: payment.status,
        totalCents: order.total,
        currency: order.currency,
      },
      event,
    );
    await deps.orders.apply(tx, known.orderId, decision);
    const cardStatus = cardStatusAfter(decision, payment.status);
    if (cardStatus !== payment.status) {
      await tx
        .update(cardPayment)
        .set({ status: cardStatus, updatedAt: input.now })
        .where(eq(cardPayment.orderId, known.orderId));
    }
    if (decision.kind === 'refund_late') {
      await refundCardPayment(tx, deps.config, known.orderId, event.amountCents);
    }
    return { received: true, duplicate: false };
  });
}

function cardStatusAfter(decision: EventDecision, before: CardPaymentStatus): CardPaymentStatus {
  if (decision.kind === 'paid' || decision.kind === 'refund_late') return 'succeeded';
  if (decision.kind === 'authorized') return 'authorized';
  if (decision.kind === 'mismatch') return 'mismatch';
  if (decision.kind === 'record') return decision.cardStatus;
  return before;
}
