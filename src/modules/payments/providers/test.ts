import { createHash, randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import type { CardPaymentStatus } from '../payment-events.ts';
import { testPaymentEvent, testPaymentIntent } from '../payments.tables.ts';
import { checkEventSignature } from '../signature.ts';
import type {
  CreateIntent,
  IntentStatus,
  PaymentEvent,
  PaymentProvider,
  ProviderIntent,
  ProviderRefund,
} from './provider.ts';

// The `test` provider: a card provider inside the service for development, demos and tests
// (docs/payments.md). It keeps its intents in its own table and behaves like a real one: the
// customer confirms with a card number (test-provider.service.ts), 3-D Secure is a second step,
// and the outcome reaches the order only as a signed event posted to the webhook by the job queue.

export const TEST_SIGNATURE_HEADER = 'test-signature';

/**
 * The key its events are signed with: derived from the service's signing secret (the configured
 * one, or the one generated at the first start and kept in the database), never written anywhere.
 */
export function testProviderSecret(tokens: { derivedKey(purpose: string): string }): string {
  return tokens.derivedKey('payments.test.webhook');
}

const token = (bytes: number) => randomBytes(bytes).toString('base64url');

export interface TestEventData {
  id: string;
  type: PaymentEvent['type'];
  created: number;
  data: { intentId: string; orderId: number; amount: number; currency: string };
}

/** Writes an event for the queue to deliver (in the transaction of the change it reports). */
export async function emitTestEvent(
  db: Db,
  type: PaymentEvent['type'],
  intent: { id: string; orderId: number; amount: number; currency: string },
  at: Date,
): Promise<void> {
  const payload: TestEventData = {
    id: `evt_test_${token(18)}`,
    type,
    created: Math.floor(at.getTime() / 1000),
    data: { intentId: intent.id, orderId: intent.orderId, amount: intent.amount, currency: intent.currency },
  };
  await db.insert(testPaymentEvent).values({ id: payload.id, payload });
}

async function moveIntent(db: Db, intentId: string, from: CardPaymentStatus[], to: CardPaymentStatus) {
  const [row] = await db
    .update(testPaymentIntent)
    .set({ status: to })
    .where(and(eq(testPaymentIntent.id, intentId), sql`${testPaymentIntent.status} in ${from}`))
    .returning();
  return row;
}

/** An intent per idempotency key: a retried creation answers the intent the first one made. */
async function createTestIntent(db: Db, request: CreateIntent): Promise<ProviderIntent> {
  // The idempotency key is unique: a retried creation answers the intent the first one made.
  await db
    .insert(testPaymentIntent)
    .values({
      id: `pi_test_${token(18)}`,
      clientSecret: `pi_secret_${token(24)}`,
      idempotencyKey: request.idempotencyKey,
      orderId: request.orderId,
      amount: request.amountCents,
      currency: request.currency.toLowerCase(),
      captureMode: request.captureMode,
      owner: request.owner,
    })
    .onConflictDoNothing({ target: testPaymentIntent.idempotencyKey });
  const [intent] = await db
    .select()
    .from(testPaymentIntent)
    .where(eq(testPaymentIntent.idempotencyKey, request.idempotencyKey));
  return {
    intentId: intent.id,
    clientSecret: intent.clientSecret,
    status: intent.status as IntentStatus,
  };
}

/** A refund taken once per key and never past the amount. */
async function refundTestIntent(
  db: Db,
  intentId: string,
  amountCents: number,
  idempotencyKey: string,
): Promise<ProviderRefund> {
  // The refund's id is derived from its key: the same key names the same refund, taken once.
  const providerRefundId = `re_test_${createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 24)}`;
  await db
    .update(testPaymentIntent)
    .set({
      refunded: sql`${testPaymentIntent.refunded} + ${amountCents}`,
      refundKeys: sql`${testPaymentIntent.refundKeys} || jsonb_build_array(${idempotencyKey}::text)`,
    })
    .where(
      and(
        eq(testPaymentIntent.id, intentId),
        sql`not ${testPaymentIntent.refundKeys} ? ${idempotencyKey}::text`,
        sql`${testPaymentIntent.refunded} + ${amountCents} <= ${testPaymentIntent.amount}`,
      ),
    );
  return { providerRefundId, status: 'succeeded' };
}

/** `eventSecret`: given where events are verified (the webhook); without it every event is refused. */
export function testProvider(db: Db, eventSecret?: string): PaymentProvider {
  return {
    name: 'test',
    signatureHeader: TEST_SIGNATURE_HEADER,
    createIntent: (request) => createTestIntent(db, request),
    async capture(intentId, _amount, _key) {
      const row = await moveIntent(db, intentId, ['authorized'], 'succeeded');
      if (row) await emitTestEvent(db, 'payment.succeeded', row, new Date());
      return row ? 'succeeded' : currentStatus(db, intentId);
    },
    async cancel(intentId, _key) {
      const open: CardPaymentStatus[] = [
        'requires_payment_method',
        'requires_action',
        'authorized',
        'failed',
      ];
      const row = await moveIntent(db, intentId, open, 'canceled');
      if (row) await emitTestEvent(db, 'payment.canceled', row, new Date());
      return row ? 'canceled' : currentStatus(db, intentId);
    },
    refund: (intentId, amountCents, idempotencyKey) =>
      refundTestIntent(db, intentId, amountCents, idempotencyKey),
    verifyEvent(rawBody, signature, now) {
      return eventSecret === undefined ? 'forged' : checkEventSignature(rawBody, signature, eventSecret, now);
    },
    parseEvent(rawBody) {
      const event = JSON.parse(rawBody) as TestEventData;
      return {
        id: event.id,
        type: event.type,
        intentId: event.data.intentId,
        amountCents: event.data.amount,
        currency: event.data.currency,
        createdAt: new Date(event.created * 1000),
      };
    },
  };
}

async function currentStatus(db: Db, intentId: string): Promise<IntentStatus> {
  const [row] = await db
    .select({ status: testPaymentIntent.status })
    .from(testPaymentIntent)
    .where(eq(testPaymentIntent.id, intentId));
  return (row?.status ?? 'canceled') as IntentStatus;
}
