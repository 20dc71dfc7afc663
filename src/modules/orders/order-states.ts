// The order life cycle (docs/checkout.md) as plain data and one pure function: no HTTP, no database.

export const ORDER_STATUSES = ['pending', 'confirmed', 'shipped', 'delivered', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** Every legal move; anything not listed (including staying put) is illegal. */
const NEXT: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  pending: ['confirmed', 'cancelled'],
  confirmed: ['shipped', 'cancelled'],
  shipped: ['delivered'],
  delivered: [],
  cancelled: [],
};

export function isOrderStatus(value: string): value is OrderStatus {
  return (ORDER_STATUSES as readonly string[]).includes(value);
}

/** The statuses an order may move to from `from`. */
export function nextStatuses(from: OrderStatus): readonly OrderStatus[] {
  return NEXT[from];
}

export function canTransition(from: OrderStatus, to: OrderStatus): boolean {
  return NEXT[from].includes(to);
}

/** What a legal move has to do besides changing the status. */
export interface TransitionEffects {
  /** Give back stock, coupon use and points: the order no longer takes anything from the shop. */
  releaseReservations: boolean;
}

export type TransitionOutcome =
  | { ok: true; to: OrderStatus; effects: TransitionEffects }
  | { ok: false; reason: string };

/**
 * Decides a move. Cancelling is the only move that releases what place-order reserved; shipped goods
 * are no longer cancellable (a return is a different process), so stock only comes back before shipping.
 */
export function transition(from: OrderStatus, to: OrderStatus): TransitionOutcome {
  if (!canTransition(from, to)) {
    const allowed = NEXT[from];
    const hint = allowed.length ? `allowed: ${allowed.join(', ')}` : `${from} is final`;
    return { ok: false, reason: `an order cannot move from ${from} to ${to} (${hint})` };
  }
  return { ok: true, to, effects: { releaseReservations: to === 'cancelled' } };
}
