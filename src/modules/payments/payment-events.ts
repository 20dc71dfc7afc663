import type { IntentStatus, PaymentEvent } from './providers/provider.ts';

// What a verified provider event means for an order's card payment (docs/payments.md): plain data
// and pure functions, no HTTP, no database. Amounts are integer cents.

/** The card payment of an order: the provider's status, or `mismatch` when an event's money differed. */
export type CardPaymentStatus = IntentStatus | 'mismatch';

/** What the decision needs to know about the order and its payment, read with the order row locked. */
export interface OrderPaymentView {
  orderStatus: string;
  /** The order's own payment status (orders/payment-states.ts). */
  paymentStatus: string;
  cardStatus: CardPaymentStatus;
  totalCents: number;
  currency: string;
}

export type EventDecision =
  /** The money arrived: the order is paid. */
  | { kind: 'paid' }
  /** The money is held (manual capture): the order is authorized. */
  | { kind: 'authorized' }
  /** Only the card payment's status changes (a failed attempt keeps the order payable). */
  | { kind: 'record'; cardStatus: CardPaymentStatus }
  /** The amount or the currency differs from the order: never paid. */
  | { kind: 'mismatch' }
  /** Money taken for an order already cancelled (it waited too long): give it back. */
  | { kind: 'refund_late' }
  | { kind: 'ignore'; reason: string };

/** True when the event's money is exactly the order's: same cents, same currency. */
export function moneyMatches(view: OrderPaymentView, event: PaymentEvent): boolean {
  return (
    event.amountCents === view.totalCents && event.currency.toUpperCase() === view.currency.toUpperCase()
  );
}

const SETTLED: readonly CardPaymentStatus[] = ['succeeded', 'authorized', 'mismatch'];

/**
 * Decides an event against the order as it stands now. Success wins over failure whatever the
 * order they arrive in (a failure after a success changes nothing), and paying happens once.
 */
export function decideEvent(view: OrderPaymentView, event: PaymentEvent): EventDecision {
  const takesMoney = event.type === 'payment.succeeded' || event.type === 'payment.authorized';
  if (takesMoney) {
    if (view.orderStatus === 'cancelled') {
      return view.paymentStatus === 'pending' && view.cardStatus !== 'succeeded'
        ? { kind: 'refund_late' }
        : { kind: 'ignore', reason: 'the order is cancelled and its payment settled' };
    }
    if (!moneyMatches(view, event))
      return view.cardStatus === 'succeeded' ? ignoreSettled() : { kind: 'mismatch' };
    if (event.type === 'payment.authorized') {
      return view.paymentStatus === 'pending' && !SETTLED.includes(view.cardStatus)
        ? { kind: 'authorized' }
        : ignoreSettled();
    }
    return view.paymentStatus === 'pending' || view.paymentStatus === 'authorized'
      ? { kind: 'paid' }
      : ignoreSettled();
  }
  if (SETTLED.includes(view.cardStatus) && event.type === 'payment.failed') return ignoreSettled();
  if (view.cardStatus === 'succeeded' || view.cardStatus === 'mismatch') return ignoreSettled();
  return { kind: 'record', cardStatus: event.type === 'payment.failed' ? 'failed' : 'canceled' };
}

function ignoreSettled(): EventDecision {
  return { kind: 'ignore', reason: 'the payment is already settled' };
}

/** A refund to send to the provider: the next in the order's sequence, with its own idempotency key. */
export interface RefundRequest {
  seq: number;
  amountCents: number;
}

/**
 * What a refund of the order sends: exactly the amount the order's refund move took (already
 * bounded by what was paid), numbered after the refunds already sent.
 */
export function nextRefund(sentBefore: readonly { seq: number }[], amountCents: number): RefundRequest {
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0) {
    throw new RangeError('a refund is a positive number of cents');
  }
  const seq = sentBefore.reduce((max, r) => Math.max(max, r.seq), 0) + 1;
  return { seq, amountCents };
}
