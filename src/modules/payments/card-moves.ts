import { and, eq } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../http/errors.ts';
import { idempotencyKeyFor } from './idempotency.ts';
import type { CardPaymentStatus } from './payment-events.ts';
import { nextRefund } from './payment-events.ts';
import { cardPayment, paymentRefund } from './payments.tables.ts';
import type { PaymentProvider } from './providers/provider.ts';
import { providerNamed } from './providers/index.ts';

// The shop's own calls to a card provider after the order is placed (docs/payments.md): capture at
// the first shipment, void at a cancellation, refunds of returns and cancellations. Each runs in the
// caller's transaction with the order row already locked, under a key derived from the order and
// the step; a provider that refuses throws, so the order's own change rolls back with it.

type CardPaymentRow = typeof cardPayment.$inferSelect;

/**
 * Calls the provider; its refusal or silence becomes 502 PAYMENT_PROVIDER_FAILED, and the caller's
 * transaction (the order's change) rolls back with it.
 */
export async function atProvider<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof AppError) throw err;
    const reason = err instanceof Error ? err.message : String(err);
    throw new AppError('PAYMENT_PROVIDER_FAILED', `the card provider answered: ${reason}`);
  }
}

async function lockedPayment(tx: Db, orderId: number): Promise<CardPaymentRow | undefined> {
  const [row] = await tx.select().from(cardPayment).where(eq(cardPayment.orderId, orderId)).for('update');
  return row;
}

function providerOf(config: Config, tx: Db, row: CardPaymentRow): PaymentProvider {
  const provider = providerNamed(row.provider, config, tx);
  if (!provider) {
    throw new AppError(
      'CONFLICT',
      `the order was paid through "${row.provider}", which this shop no longer runs`,
    );
  }
  return provider;
}

/**
 * Takes the money an authorization holds (manual capture). The order becomes paid when the
 * provider's event says so, like any card payment. False when nothing was held.
 */
export async function captureCardPayment(tx: Db, config: Config, orderId: number): Promise<boolean> {
  const row = await lockedPayment(tx, orderId);
  if (row?.status !== 'authorized') return false;
  const provider = providerOf(config, tx, row);
  await atProvider(() => provider.capture(row.intentId, row.amount, idempotencyKeyFor(orderId, 'capture')));
  return true;
}

const VOIDABLE: readonly CardPaymentStatus[] = [
  'requires_payment_method',
  'requires_action',
  'processing',
  'authorized',
  'failed',
];

/** Releases an authorization, or closes an intent nobody paid, when its order is cancelled. */
export async function voidCardPayment(tx: Db, config: Config, orderId: number): Promise<void> {
  const row = await lockedPayment(tx, orderId);
  if (!row || !VOIDABLE.includes(row.status)) return;
  const provider = providerOf(config, tx, row);
  await atProvider(() => provider.cancel(row.intentId, idempotencyKeyFor(orderId, 'cancel')));
}

/**
 * Gives back to the card exactly the amount the order's refund move took (docs/orders.md computes
 * it), as the next refund of the order with its own key. Nothing when the card never paid.
 */
export async function refundCardPayment(
  tx: Db,
  config: Config,
  orderId: number,
  amountCents: number,
): Promise<void> {
  const row = await lockedPayment(tx, orderId);
  if (row?.status !== 'succeeded') return;
  const sent = await tx
    .select({ seq: paymentRefund.seq })
    .from(paymentRefund)
    .where(eq(paymentRefund.orderId, orderId));
  const refund = nextRefund(sent, amountCents);
  await tx.insert(paymentRefund).values({ orderId, seq: refund.seq, amount: refund.amountCents });
  const provider = providerOf(config, tx, row);
  const answer = await atProvider(() =>
    provider.refund(row.intentId, refund.amountCents, idempotencyKeyFor(orderId, { refund: refund.seq })),
  );
  await tx
    .update(paymentRefund)
    .set({ status: answer.status, providerRefundId: answer.providerRefundId })
    .where(and(eq(paymentRefund.orderId, orderId), eq(paymentRefund.seq, refund.seq)));
}
