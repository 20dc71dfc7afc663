import Stripe from 'stripe';
import {
  EVENT_TOLERANCE_SECONDS,
  type EventCheck,
  type IntentStatus,
  type PaymentEvent,
  type PaymentProvider,
  type ProviderRefund,
} from './provider.ts';

// The `stripe` provider through Stripe's official client (docs/payments.md): PaymentIntents,
// refunds, and events verified with the `Stripe-Signature` header over the raw body. The customer
// confirms the intent in the browser with Stripe.js and the client secret; the shop learns the
// outcome only from the signed events.

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** Where the API answers (`https://api.stripe.com` unless set): protocol, host and port. */
  apiBase?: string;
}

/** The client's address options from `apiBase`; none means Stripe's own API. */
function addressOf(apiBase: string | undefined): Stripe.StripeConfig {
  if (!apiBase) return {};
  const url = new URL(apiBase);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: url.port || (protocol === 'http' ? 80 : 443), protocol };
}

const STATUSES: Record<Stripe.PaymentIntent.Status, IntentStatus> = {
  requires_payment_method: 'requires_payment_method',
  requires_confirmation: 'requires_payment_method',
  requires_action: 'requires_action',
  processing: 'processing',
  requires_capture: 'authorized',
  succeeded: 'succeeded',
  canceled: 'canceled',
};

/** What each Stripe event kind the shop acts on means, and which of the intent's amounts it reports. */
const EVENTS: Record<string, { type: PaymentEvent['type']; amount: (pi: Stripe.PaymentIntent) => number }> = {
  'payment_intent.succeeded': { type: 'payment.succeeded', amount: (pi) => pi.amount_received },
  'payment_intent.amount_capturable_updated': {
    type: 'payment.authorized',
    amount: (pi) => pi.amount_capturable,
  },
  'payment_intent.payment_failed': { type: 'payment.failed', amount: (pi) => pi.amount },
  'payment_intent.canceled': { type: 'payment.canceled', amount: (pi) => pi.amount },
};

function refundStatus(status: string | null): ProviderRefund['status'] {
  if (status === 'succeeded') return 'succeeded';
  return status === 'failed' || status === 'canceled' ? 'failed' : 'pending';
}

/** Stripe's `Stripe-Signature` scheme on the raw body; the event's age measured at `now`. */
function verifyStripeEvent(
  stripe: Stripe,
  webhookSecret: string,
  rawBody: string,
  signature: string | undefined,
  now: Date,
): EventCheck {
  if (!signature) return 'missing';
  try {
    // The event's age is measured at `now` (milliseconds, as the client expects it).
    stripe.webhooks.constructEvent(
      rawBody,
      signature,
      webhookSecret,
      EVENT_TOLERANCE_SECONDS,
      undefined,
      now.getTime(),
    );
    return 'valid';
  } catch (err) {
    return err instanceof Error && /tolerance/i.test(err.message) ? 'stale' : 'forged';
  }
}

/** A PaymentIntent event in the shop's words; other events mean nothing here (null). */
function parseStripeEvent(rawBody: string): PaymentEvent | null {
  const event = JSON.parse(rawBody) as Stripe.Event;
  const meaning = EVENTS[event.type];
  if (!meaning) return null;
  const pi = event.data.object as Stripe.PaymentIntent;
  return {
    id: event.id,
    type: meaning.type,
    intentId: pi.id,
    amountCents: meaning.amount(pi),
    currency: pi.currency,
    createdAt: new Date(event.created * 1000),
  };
}

export function stripeProvider(settings: StripeSettings): PaymentProvider {
  // Retries carry the same idempotency key, so a request that timed out is never applied twice.
  const stripe = new Stripe(settings.secretKey, { maxNetworkRetries: 2, ...addressOf(settings.apiBase) });
  return {
    name: 'stripe',
    signatureHeader: 'stripe-signature',
    async createIntent(request) {
      const pi = await stripe.paymentIntents.create(
        {
          amount: request.amountCents,
          currency: request.currency.toLowerCase(),
          capture_method: request.captureMode === 'manual' ? 'manual' : 'automatic',
          metadata: { orderId: String(request.orderId), owner: request.owner },
        },
        { idempotencyKey: request.idempotencyKey },
      );
      return { intentId: pi.id, clientSecret: pi.client_secret ?? '', status: STATUSES[pi.status] };
    },
    async capture(intentId, amountCents, idempotencyKey) {
      const pi = await stripe.paymentIntents.capture(
        intentId,
        { amount_to_capture: amountCents },
        { idempotencyKey },
      );
      return STATUSES[pi.status];
    },
    async cancel(intentId, idempotencyKey) {
      const pi = await stripe.paymentIntents.cancel(intentId, {}, { idempotencyKey });
      return STATUSES[pi.status];
    },
    async refund(intentId, amountCents, idempotencyKey) {
      const refund = await stripe.refunds.create(
        { payment_intent: intentId, amount: amountCents },
        { idempotencyKey },
      );
      return { providerRefundId: refund.id, status: refundStatus(refund.status) };
    },
    verifyEvent: (rawBody, signature, now) =>
      verifyStripeEvent(stripe, settings.webhookSecret, rawBody, signature, now),
    parseEvent: parseStripeEvent,
  };
}
