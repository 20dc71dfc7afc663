import type { Db } from '../../db/client.ts';
import { AppError } from '../../http/errors.ts';
import type { CardPaymentStatus } from './payment-events.ts';
import { stepTestIntent, type TestIntentStep } from './providers/test.ts';

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

const SUCCEEDS = {
  to: { automatic: 'succeeded', manual: 'authorized' },
  event: { automatic: 'payment.succeeded', manual: 'payment.authorized' },
} as const;
const FAILS = {
  to: { automatic: 'requires_payment_method', manual: 'requires_payment_method' },
  event: { automatic: 'payment.failed', manual: 'payment.failed' },
} as const;
const ASKS_3DS = { to: { automatic: 'requires_action', manual: 'requires_action' } } as const;

/** Runs a step; an intent that is not the caller's does not exist, one elsewhere is a conflict. */
async function step(
  db: Db,
  input: Omit<TestIntentStep, 'to' | 'event'>,
  move: Pick<TestIntentStep, 'to' | 'event'>,
  refusal: (status: CardPaymentStatus) => string,
): Promise<CardPaymentStatus> {
  const outcome = await stepTestIntent(db, { ...input, ...move });
  if (outcome.moved && outcome.status) return outcome.status;
  if (!outcome.status) throw new AppError('NOT_FOUND', 'no such payment intent');
  if (outcome.status === input.from) {
    throw new AppError('CONFLICT', 'another step on this intent ran at the same moment');
  }
  throw new AppError('CONFLICT', refusal(outcome.status));
}

// A declined attempt leaves the intent payable: confirming again with another card is the retry.
const declined = (status: CardPaymentStatus, code: string): StepAnswer => ({
  status,
  nextAction: null,
  declineCode: code,
});

export async function confirmTestIntent(
  db: Db,
  input: { intentId: string; cardNumber: string; owner: string; now: Date },
): Promise<StepAnswer> {
  const unpaid = (status: CardPaymentStatus) =>
    `the intent is ${status}: only an unpaid intent can be confirmed`;
  const base = {
    intentId: input.intentId,
    owner: input.owner,
    from: 'requires_payment_method',
    countsAttempt: true,
    at: input.now,
  } as const;
  if (input.cardNumber === TEST_CARDS.approves) {
    return { status: await step(db, base, SUCCEEDS, unpaid), nextAction: null, declineCode: null };
  }
  if (input.cardNumber === TEST_CARDS.asksFor3ds) {
    const status = await step(db, base, ASKS_3DS, unpaid);
    const url = `/rest/payments/test/authenticate?intentId=${encodeURIComponent(input.intentId)}`;
    return { status, nextAction: { type: 'redirect', url }, declineCode: null };
  }
  const code = input.cardNumber === TEST_CARDS.declines ? 'card_declined' : 'incorrect_number';
  return declined(await step(db, base, FAILS, unpaid), code);
}

export async function authenticateTestIntent(
  db: Db,
  input: { intentId: string; outcome: 'pass' | 'fail'; owner: string; now: Date },
): Promise<StepAnswer> {
  const waiting = (status: CardPaymentStatus) => `the intent is ${status}: nothing to authenticate`;
  const base = {
    intentId: input.intentId,
    owner: input.owner,
    from: 'requires_action',
    countsAttempt: false,
    at: input.now,
  } as const;
  if (input.outcome === 'pass') {
    return { status: await step(db, base, SUCCEEDS, waiting), nextAction: null, declineCode: null };
  }
  return declined(await step(db, base, FAILS, waiting), 'authentication_failed');
}
