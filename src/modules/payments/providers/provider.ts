// The line between the shop and a card provider (docs/payments.md): plain TypeScript, no HTTP
// framework, no database. A provider is one file implementing PaymentProvider; the shop decides
// what an event means for an order (../payment-events.ts), the provider only moves money and
// reports what happened. Every call that can move money carries an idempotency key derived from
// the order and the step (../idempotency.ts), so a call retried after a timeout never charges twice.

/** Where a provider's payment intent stands, in the shop's words. */
export const INTENT_STATUSES = [
  'requires_payment_method',
  'requires_action',
  'processing',
  'authorized',
  'succeeded',
  'failed',
  'canceled',
] as const;
export type IntentStatus = (typeof INTENT_STATUSES)[number];

export interface CreateIntent {
  orderId: number;
  /** The order total in minor units. */
  amountCents: number;
  /** ISO 4217, upper case. */
  currency: string;
  /** manual: authorize only; the shop captures later (at the first shipment). */
  captureMode: 'automatic' | 'manual';
  /** Who may confirm the intent: `customer:<id>` or `guest`. */
  owner: string;
  idempotencyKey: string;
}

export interface ProviderIntent {
  intentId: string;
  /** Handed to the customer's browser to confirm the payment; never a secret key. */
  clientSecret: string;
  status: IntentStatus;
}

export interface ProviderRefund {
  providerRefundId: string;
  status: 'pending' | 'succeeded' | 'failed';
}

/** What a provider's event says, once verified and read. Amounts in minor units. */
export interface PaymentEvent {
  /** The provider's event id: each is processed once. */
  id: string;
  type: 'payment.authorized' | 'payment.succeeded' | 'payment.failed' | 'payment.canceled';
  intentId: string;
  amountCents: number;
  currency: string;
  /** When the provider created the event. */
  createdAt: Date;
}

export type EventCheck = 'valid' | 'missing' | 'forged' | 'stale';

export interface PaymentProvider {
  /** The code in URLs and on orders: test, stripe. */
  readonly name: string;
  /** The request header that carries the event's signature. */
  readonly signatureHeader: string;
  createIntent(request: CreateIntent): Promise<ProviderIntent>;
  /** Takes an authorized amount (manual capture). */
  capture(intentId: string, amountCents: number, idempotencyKey: string): Promise<IntentStatus>;
  /** Releases an authorization, or abandons an intent nobody paid. */
  cancel(intentId: string, idempotencyKey: string): Promise<IntentStatus>;
  refund(intentId: string, amountCents: number, idempotencyKey: string): Promise<ProviderRefund>;
  /** Checks an event's signature over its raw body; events older than the tolerance are stale. */
  verifyEvent(rawBody: string, signature: string | undefined, now: Date): EventCheck;
  /** Reads a verified event; null for the kinds the shop does not act on. */
  parseEvent(rawBody: string): PaymentEvent | null;
}

/** Events older than this are refused, so a captured event cannot be replayed later. */
export const EVENT_TOLERANCE_SECONDS = 300;
