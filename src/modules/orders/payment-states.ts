// The payment life cycle beside the order's own (docs/orders.md): plain data and pure functions,
// no HTTP, no database. Amounts are integer cents.

/** `authorized`: a card's money is held at the provider (manual capture), taken at the first shipment. */
export const PAYMENT_STATUSES = ['pending', 'authorized', 'paid', 'partially_refunded', 'refunded'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** What an order's payment stands at: what it owes, what was paid, what was refunded. */
export interface PaymentState {
  status: PaymentStatus;
  /** The order total the customer owes. */
  dueCents: number;
  paidCents: number;
  refundedCents: number;
}

export type PaymentMove =
  /** The money arrived (a bank transfer or card confirmed by an admin, cash taken on delivery). */
  | { kind: 'paid' }
  /** A card's money is held at the provider, not taken yet (manual capture). */
  | { kind: 'authorized' }
  /** Money given back, up to what was paid and not refunded yet. */
  | { kind: 'refund'; amountCents: number };

export type PaymentOutcome = { ok: true; state: PaymentState } | { ok: false; reason: string };

export function isPaymentStatus(value: string): value is PaymentStatus {
  return (PAYMENT_STATUSES as readonly string[]).includes(value);
}

/** A new order's payment: nothing paid yet. */
export function unpaid(dueCents: number): PaymentState {
  return { status: 'pending', dueCents, paidCents: 0, refundedCents: 0 };
}

/** How much can still be refunded. */
export function refundable(state: PaymentState): number {
  return state.paidCents - state.refundedCents;
}

/**
 * Decides a payment move. Paying is once and for the whole amount due; a refund takes at most what
 * was paid and not yet refunded, so no sequence of moves refunds more than was paid.
 */
export function movePayment(state: PaymentState, move: PaymentMove): PaymentOutcome {
  if (move.kind === 'authorized') {
    if (state.status !== 'pending') return { ok: false, reason: `the payment is already ${state.status}` };
    return { ok: true, state: { ...state, status: 'authorized' } };
  }
  if (move.kind === 'paid') {
    if (state.status !== 'pending' && state.status !== 'authorized') {
      return { ok: false, reason: `the payment is already ${state.status}` };
    }
    return { ok: true, state: { ...state, status: 'paid', paidCents: state.dueCents } };
  }
  const amount = move.amountCents;
  if (!Number.isSafeInteger(amount) || amount <= 0) {
    return { ok: false, reason: 'a refund is a positive number of cents' };
  }
  if (state.status === 'pending' || state.status === 'authorized')
    return { ok: false, reason: 'nothing was paid, so nothing can be refunded' };
  if (amount > refundable(state)) {
    return { ok: false, reason: `at most ${refundable(state)} cents can still be refunded` };
  }
  const refundedCents = state.refundedCents + amount;
  const status: PaymentStatus = refundedCents === state.paidCents ? 'refunded' : 'partially_refunded';
  return { ok: true, state: { ...state, status, refundedCents } };
}
