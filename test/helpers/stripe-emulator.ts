import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

// A local stand-in for Stripe's API, enough for the `stripe` provider's tests: PaymentIntents
// (create, retrieve, confirm with Stripe's test payment methods, capture, cancel) and refunds,
// form-encoded requests, Stripe-shaped JSON and errors, Idempotency-Key honoured (the same key
// answers the first answer again), and the events Stripe would send, signed as Stripe signs them.

export const TEST_METHODS = {
  approves: 'pm_card_visa',
  declines: 'pm_card_chargeDeclined',
  asksFor3ds: 'pm_card_threeDSecure2Required',
} as const;

interface Intent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_capturable: number;
  amount_received: number;
  currency: string;
  capture_method: 'automatic' | 'manual';
  client_secret: string;
  status: string;
  metadata: Record<string, string>;
  next_action: unknown;
  last_payment_error: unknown;
  created: number;
  refunded: number;
}

export interface SignedEvent {
  type: string;
  raw: string;
  signature: string;
}

type Answer = { status: number; body: unknown };

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const now = () => Math.floor(Date.now() / 1000);
const fail = (status: number, message: string, type = 'invalid_request_error', code?: string): Answer => ({
  status,
  body: { error: { type, message, ...(code ? { code, decline_code: code } : {}) } },
});

/** `metadata[orderId]=1` → {metadata: {orderId: '1'}}: the form encoding Stripe's client sends. */
function formOf(text: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const nested = /^(\w+)\[(\w+)\]$/.exec(key);
    if (nested) {
      const inner = (out[nested[1]] ?? {}) as Record<string, string>;
      inner[nested[2]] = value;
      out[nested[1]] = inner;
    } else out[key] = value;
  }
  return out;
}

export class StripeEmulator {
  readonly webhookSecret = `whsec_${randomBytes(16).toString('hex')}`;
  readonly secretKey = `sk_test_${randomBytes(12).toString('hex')}`;
  readonly intents = new Map<string, Intent>();
  readonly refunds: { id: string; payment_intent: string; amount: number; idempotencyKey: string }[] = [];
  /** Every request as received: method, path and its Idempotency-Key. */
  readonly requests: { method: string; path: string; idempotencyKey?: string }[] = [];
  private readonly answered = new Map<string, Answer>();
  private readonly outbox: SignedEvent[] = [];
  private readonly signer = new Stripe('sk_test_signer');
  private readonly server = createServer((req, res) => void this.handle(req, res));
  url = '';

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** The events written since the last call, each signed with a `Stripe-Signature` header. */
  takeEvents(): SignedEvent[] {
    return this.outbox.splice(0);
  }

  /** Signs a payload as Stripe does, optionally at another time (stale events) or with another key. */
  sign(raw: string, at = now(), secret = this.webhookSecret): string {
    return this.signer.webhooks.generateTestHeaderString({ payload: raw, secret, timestamp: at });
  }

  private emit(type: string, intent: Intent): void {
    const { refunded: _r, ...object } = intent;
    const raw = JSON.stringify({
      id: id('evt'),
      object: 'event',
      type,
      created: now(),
      livemode: false,
      data: { object },
    });
    this.outbox.push({ type, raw, signature: this.sign(raw) });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let text = '';
    for await (const chunk of req) text += chunk;
    const key = req.headers['idempotency-key'];
    const idempotencyKey = typeof key === 'string' ? key : undefined;
    const path = (req.url ?? '').split('?')[0];
    this.requests.push({ method: req.method ?? '', path, idempotencyKey });
    let answer: Answer;
    if (req.headers.authorization !== `Bearer ${this.secretKey}`) {
      answer = fail(401, 'Invalid API Key provided');
    } else if (idempotencyKey && this.answered.has(idempotencyKey)) {
      answer = this.answered.get(idempotencyKey) as Answer;
    } else {
      answer = this.route(req.method ?? 'GET', path, formOf(text), idempotencyKey ?? '');
      if (idempotencyKey && req.method === 'POST') this.answered.set(idempotencyKey, answer);
    }
    res.writeHead(answer.status, { 'content-type': 'application/json', 'request-id': id('req') });
    res.end(JSON.stringify(answer.body));
  }

  private route(method: string, path: string, form: Record<string, unknown>, key: string): Answer {
    if (method === 'POST' && path === '/v1/payment_intents') return this.create(form);
    if (method === 'POST' && path === '/v1/refunds') return this.refund(form, key);
    const match = /^\/v1\/payment_intents\/([\w]+)(?:\/(confirm|capture|cancel))?$/.exec(path);
    const intent = match ? this.intents.get(match[1]) : undefined;
    if (!match || !intent) return fail(404, `No such payment_intent: '${match?.[1] ?? path}'`);
    if (method === 'GET' && !match[2]) return ok(intent);
    if (match[2] === 'confirm') return this.confirm(intent, String(form.payment_method ?? ''));
    if (match[2] === 'capture') return this.capture(intent, Number(form.amount_to_capture ?? intent.amount));
    if (match[2] === 'cancel') return this.cancel(intent);
    return fail(404, 'Unrecognized request URL');
  }

  private create(form: Record<string, unknown>): Answer {
    const amount = Number(form.amount);
    if (!Number.isSafeInteger(amount) || amount < 1) return fail(400, 'Invalid integer: amount');
    const intentId = id('pi');
    const intent: Intent = {
      id: intentId,
      object: 'payment_intent',
      amount,
      amount_capturable: 0,
      amount_received: 0,
      currency: String(form.currency),
      capture_method: form.capture_method === 'manual' ? 'manual' : 'automatic',
      client_secret: `${intentId}_secret_${randomBytes(8).toString('hex')}`,
      status: 'requires_payment_method',
      metadata: (form.metadata ?? {}) as Record<string, string>,
      next_action: null,
      last_payment_error: null,
      created: now(),
      refunded: 0,
    };
    this.intents.set(intentId, intent);
    return ok(intent);
  }

  /** What Stripe.js does in the customer's browser: confirm with one of Stripe's test methods. */
  confirm(intent: Intent, method: string): Answer {
    if (intent.status !== 'requires_payment_method' && intent.status !== 'requires_action') {
      return fail(400, `This PaymentIntent's status is ${intent.status}`, 'invalid_request_error');
    }
    if (method === TEST_METHODS.declines) {
      intent.status = 'requires_payment_method';
      intent.last_payment_error = { code: 'card_declined', decline_code: 'generic_decline' };
      this.emit('payment_intent.payment_failed', intent);
      return fail(402, 'Your card was declined.', 'card_error', 'card_declined');
    }
    if (method === TEST_METHODS.asksFor3ds && intent.status === 'requires_payment_method') {
      intent.status = 'requires_action';
      intent.next_action = { type: 'use_stripe_sdk' };
      return ok(intent);
    }
    intent.next_action = null;
    if (intent.capture_method === 'manual') {
      intent.status = 'requires_capture';
      intent.amount_capturable = intent.amount;
      this.emit('payment_intent.amount_capturable_updated', intent);
    } else {
      intent.status = 'succeeded';
      intent.amount_received = intent.amount;
      this.emit('payment_intent.succeeded', intent);
    }
    return ok(intent);
  }

  private capture(intent: Intent, amount: number): Answer {
    if (intent.status !== 'requires_capture') {
      return fail(
        400,
        `This PaymentIntent could not be captured because it has a status of ${intent.status}.`,
      );
    }
    intent.status = 'succeeded';
    intent.amount_received = amount;
    intent.amount_capturable = 0;
    this.emit('payment_intent.succeeded', intent);
    return ok(intent);
  }

  private cancel(intent: Intent): Answer {
    if (intent.status === 'succeeded' || intent.status === 'canceled') {
      return fail(400, `You cannot cancel this PaymentIntent because it has a status of ${intent.status}.`);
    }
    intent.status = 'canceled';
    intent.amount_capturable = 0;
    this.emit('payment_intent.canceled', intent);
    return ok(intent);
  }

  private refund(form: Record<string, unknown>, idempotencyKey: string): Answer {
    const intent = this.intents.get(String(form.payment_intent));
    if (!intent) return fail(404, `No such payment_intent: '${String(form.payment_intent)}'`);
    const amount = Number(form.amount ?? intent.amount_received - intent.refunded);
    if (intent.status !== 'succeeded')
      return fail(400, 'This PaymentIntent has no successful charge to refund.');
    if (amount > intent.amount_received - intent.refunded) {
      return fail(400, `Refund amount (${amount}) is greater than unrefunded amount on charge.`);
    }
    intent.refunded += amount;
    const refund = { id: id('re'), payment_intent: intent.id, amount, idempotencyKey };
    this.refunds.push(refund);
    return ok({
      id: refund.id,
      object: 'refund',
      amount,
      currency: intent.currency,
      payment_intent: intent.id,
      status: 'succeeded',
    });
  }
}

/** A copy of the object as it stands now: a key's stored answer does not follow later changes. */
function ok(body: unknown): Answer {
  if (body && typeof body === 'object' && 'refunded' in body) {
    const { refunded: _r, ...visible } = body as Intent;
    return { status: 200, body: structuredClone(visible) };
  }
  return { status: 200, body: structuredClone(body) };
}

export async function startStripeEmulator(): Promise<StripeEmulator> {
  return new StripeEmulator().start();
}
