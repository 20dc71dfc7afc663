import { type SQL, sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { preparedRows } from '../../db/statements.ts';
import { AppError } from '../../http/errors.ts';
import { refundCardPayment } from './card-moves.ts';
import { type CardPaymentStatus, decideEvent, type EventDecision } from './payment-events.ts';
import { type PaymentKeys, providerNamed } from './providers/index.ts';

// A provider's event, the one way an order learns how its card payment went (docs/payments.md):
// verified over the raw body, processed once per event id, decided against the order as it stands
// with its row locked, so concurrent events for one order leave one consistent payment.

/** An order a card intent pays, read with its row locked, and how to carry a decision out on it. */
export interface LockedOrderPayment {
  orderId: number;
  status: string;
  paymentStatus: string;
  total: number;
  currency: string;
  cardStatus: CardPaymentStatus;
  /**
   * Carries a decision out on the locked order (paid, authorized, the trace of a late refund),
   * with the card payment's own change (`alongside`, a statement of this module's) in the same
   * statement where it can, else just after.
   */
  apply(decision: EventDecision, alongside?: SQL): Promise<void>;
}

/** What the payments module needs from the orders module; passed in by the module list. */
export interface OrderPaymentPort {
  /**
   * Locks the order the intent pays (the order row: every path that moves an order's payment
   * locks it first, so two events for one order queue up instead of deciding on the same state)
   * and reads it with its card payment's status; undefined when no order has that intent.
   */
  lockOrderPaidBy(tx: Db, intentId: string): Promise<LockedOrderPayment | undefined>;
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
    const [first] = await preparedRows<{ eventId: string }>(
      tx,
      'payment_event_once',
      sql`insert into payment_event (provider, event_id, type, intent_id)
        values (${provider.name}, ${event.id}, ${event.type}, ${event.intentId})
        on conflict do nothing returning event_id as "eventId"`,
    );
    if (!first) return { received: true, duplicate: true };
    const order = await deps.orders.lockOrderPaidBy(tx, event.intentId);
    if (!order) return { received: true, duplicate: false };
    const decision = decideEvent(
      {
        orderStatus: order.status,
        paymentStatus: order.paymentStatus,
        cardStatus: order.cardStatus,
        totalCents: order.total,
        currency: order.currency,
      },
      event,
    );
    const cardStatus = cardStatusAfter(decision, order.cardStatus);
    const moveCard =
      cardStatus === order.cardStatus
        ? undefined
        : sql`update card_payment set status = ${cardStatus}, updated_at = ${input.now}
            where order_id = ${order.orderId}`;
    await order.apply(decision, moveCard);
    if (decision.kind === 'refund_late') {
      await refundCardPayment(tx, deps.config, order.orderId, event.amountCents);
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
