import { createHash, randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { preparedRows } from '../../../db/statements.ts';
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

function eventOf(
  type: PaymentEvent['type'],
  intent: { id: string; orderId: number; amount: number; currency: string },
  at: Date,
): TestEventData {
  return {
    id: `evt_test_${token(18)}`,
    type,
    created: Math.floor(at.getTime() / 1000),
    data: { intentId: intent.id, orderId: intent.orderId, amount: intent.amount, currency: intent.currency },
  };
}

/** Writes an event for the queue to deliver (in the transaction of the change it reports). */
export async function emitTestEvent(
  db: Db,
  type: PaymentEvent['type'],
  intent: { id: string; orderId: number; amount: number; currency: string },
  at: Date,
): Promise<void> {
  const payload = eventOf(type, intent, at);
  await db.insert(testPaymentEvent).values({ id: payload.id, payload });
}

/** A customer's step: from which status, to which (and the event it causes) by capture mode. */
export interface TestIntentStep {
  intentId: string;
  owner: string;
  from: CardPaymentStatus;
  to: { automatic: CardPaymentStatus; manual: CardPaymentStatus };
  event?: { automatic: PaymentEvent['type']; manual: PaymentEvent['type'] };
  countsAttempt: boolean;
  at: Date;
}

/**
 * Takes a step in one statement (no transaction to open): the intent moves only when the caller
 * owns it and it stands at `from`, and the event is written with the move. Answers the status
 * after the step, or, when nothing moved, the status it stood at (undefined: not the caller's).
 */
export async function stepTestIntent(
  db: Db,
  step: TestIntentStep,
): Promise<{ moved: boolean; status: CardPaymentStatus | undefined }> {
  const byMode = (values: { automatic: string; manual: string }) =>
    sql`case when capture_mode = 'manual' then ${values.manual}::text else ${values.automatic}::text end`;
  const attempts = step.countsAttempt ? sql`, attempts = attempts + 1` : sql``;
  const eventId = `evt_test_${token(18)}`;
  const created = Math.floor(step.at.getTime() / 1000);
  const emitted = step.event
    ? sql`, emitted as (
        insert into test_payment_event (id, payload)
        select ${eventId}, jsonb_build_object('id', ${eventId}::text, 'type', ${byMode(step.event)},
          'created', ${created}::bigint, 'data', jsonb_build_object('intentId', id,
          'orderId', order_id, 'amount', amount, 'currency', currency))
        from moved)`
    : sql``;
  const [row] = await preparedRows<{ after: CardPaymentStatus | null; before: CardPaymentStatus | null }>(
    db,
    'test_intent_step',
    sql`with moved as (
        update test_payment_intent set status = ${byMode(step.to)}${attempts}
        where id = ${step.intentId} and owner = ${step.owner} and status = ${step.from}
        returning id, order_id, amount, currency, status, capture_mode)${emitted}
      select (select status from moved) as after,
        (select status from test_payment_intent where id = ${step.intentId} and owner = ${step.owner}) as before`,
  );
  if (row?.after) return { moved: true, status: row.after };
  return { moved: false, status: row?.before ?? undefined };
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
  // The idempotency key is unique: a retried creation answers the intent the first one made (the
  // no-op update makes the insert return the row it met).
  const [intent] = await preparedRows<ProviderIntent>(
    db,
    'test_intent_create',
    sql`insert into test_payment_intent (id, client_secret, idempotency_key, order_id, amount, currency,
        capture_mode, owner)
      values (${`pi_test_${token(18)}`}, ${`pi_secret_${token(24)}`}, ${request.idempotencyKey},
        ${request.orderId}::int, ${request.amountCents}::int, ${request.currency.toLowerCase()},
        ${request.captureMode}, ${request.owner})
      on conflict (idempotency_key) do update set idempotency_key = excluded.idempotency_key
      returning id as "intentId", client_secret as "clientSecret", status`,
  );
  return intent;
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
