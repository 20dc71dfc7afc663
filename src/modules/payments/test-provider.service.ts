import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../http/errors.ts';
import type { CardPaymentStatus } from './payment-events.ts';
import { testPaymentIntent } from './payments.tables.ts';
import { emitTestEvent } from './providers/test.ts';

// The customer's steps at the test provider (docs/payments.md): confirm with a card number, pass
// or fail 3-D Secure. The answer says where the intent stands; the order learns the outcome only
// from the event these steps write, delivered to the webhook by the job queue.

export const TEST_CARDS = {
  approves: '4242424242424242',
  declines: '4000000000000002',
  asksFor3ds: '4000002500003155',
} as const;

export interface StepAnswer {
  status: CardPaymentStatus;
  nextAction: { type: 'redirect'; url: string } | null;
  declineCode: string | null;
}

type IntentRow = typeof testPaymentIntent.$inferSelect;

/** The intent, locked, when the caller owns it; anyone else is told it does not exist. */
async function ownIntent(tx: Db, intentId: string, owner: string): Promise<IntentRow> {
  const [intent] = await tx
    .select()
    .from(testPaymentIntent)
    .where(eq(testPaymentIntent.id, intentId))
    .for('update');
  if (!intent || intent.owner !== owner) throw new AppError('NOT_FOUND', 'no such payment intent');
  return intent;
}

async function succeed(tx: Db, intent: IntentRow, now: Date): Promise<StepAnswer> {
  const status = intent.captureMode === 'manual' ? 'authorized' : 'succeeded';
  await tx.update(testPaymentIntent).set({ status }).where(eq(testPaymentIntent.id, intent.id));
  await emitTestEvent(tx, status === 'authorized' ? 'payment.authorized' : 'payment.succeeded', intent, now);
  return { status, nextAction: null, declineCode: null };
}

async function decline(tx: Db, intent: IntentRow, code: string, now: Date): Promise<StepAnswer> {
  // A declined attempt leaves the intent payable: confirming again with another card is the retry.
  await tx
    .update(testPaymentIntent)
    .set({ status: 'requires_payment_method' })
    .where(eq(testPaymentIntent.id, intent.id));
  await emitTestEvent(tx, 'payment.failed', intent, now);
  return { status: 'requires_payment_method', nextAction: null, declineCode: code };
}

export async function confirmTestIntent(
  db: Db,
  input: { intentId: string; cardNumber: string; owner: string; now: Date },
): Promise<StepAnswer> {
  return db.transaction(async (tx) => {
    const intent = await ownIntent(tx, input.intentId, input.owner);
    if (intent.status !== 'requires_payment_method') {
      throw new AppError(
        'CONFLICT',
        `the intent is ${intent.status}: only an unpaid intent can be confirmed`,
      );
    }
    await tx
      .update(testPaymentIntent)
      .set({ attempts: intent.attempts + 1 })
      .where(eq(testPaymentIntent.id, intent.id));
    if (input.cardNumber === TEST_CARDS.approves) return succeed(tx, intent, input.now);
    if (input.cardNumber === TEST_CARDS.asksFor3ds) {
      await tx
        .update(testPaymentIntent)
        .set({ status: 'requires_action' })
        .where(eq(testPaymentIntent.id, intent.id));
      const url = `/rest/payments/test/authenticate?intentId=${encodeURIComponent(intent.id)}`;
      return { status: 'requires_action', nextAction: { type: 'redirect', url }, declineCode: null };
    }
    const code = input.cardNumber === TEST_CARDS.declines ? 'card_declined' : 'incorrect_number';
    return decline(tx, intent, code, input.now);
  });
}

export async function authenticateTestIntent(
  db: Db,
  input: { intentId: string; outcome: 'pass' | 'fail'; owner: string; now: Date },
): Promise<StepAnswer> {
  return db.transaction(async (tx) => {
    const intent = await ownIntent(tx, input.intentId, input.owner);
    if (intent.status !== 'requires_action') {
      throw new AppError('CONFLICT', `the intent is ${intent.status}: nothing to authenticate`);
    }
    if (input.outcome === 'pass') return succeed(tx, intent, input.now);
    return decline(tx, intent, 'authentication_failed', input.now);
  });
}
