// Idempotency keys sent with every provider call that can move money. Derived from the order and
// the step, never random: a call retried after a timeout (or by a second instance) sends the same
// key, and the provider answers the first call's result instead of charging again.

export type PaymentStep = 'intent' | 'capture' | 'cancel' | { refund: number };

/** `order-<id>-intent`, `order-<id>-capture`, `order-<id>-cancel`, `order-<id>-refund-<n>`. */
export function idempotencyKeyFor(orderId: number, step: PaymentStep): string {
  if (!Number.isSafeInteger(orderId) || orderId < 1)
    throw new RangeError('an order id is a positive integer');
  if (typeof step === 'string') return `order-${orderId}-${step}`;
  if (!Number.isSafeInteger(step.refund) || step.refund < 1) throw new RangeError('refunds count from 1');
  return `order-${orderId}-refund-${step.refund}`;
}
