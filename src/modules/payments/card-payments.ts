import type { Static } from '@sinclair/typebox';
import { and, inArray, sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { preparedRows } from '../../db/statements.ts';
import { AppError } from '../../http/errors.ts';
import { fromCents } from '../../lib/money.ts';
import { atProvider } from './card-moves.ts';
import { idempotencyKeyFor } from './idempotency.ts';
import type { CardPaymentJson } from './payments.schemas.ts';
import { cardPayment, paymentEvent, paymentRefund } from './payments.tables.ts';
import { cardProvider } from './providers/index.ts';

// An order's card payment as the payments module keeps it: created with the order, moved by the
// provider's verified events (webhook.service.ts), shown with the order.

export type CardPaymentJsonType = Static<typeof CardPaymentJson>;

export interface OrderToPay {
  id: number;
  /** The order total in cents. */
  total: number;
  currency: string;
}

/** Who may see and confirm an order's intent. */
export function ownerOf(customerId: number | null): string {
  return customerId === null ? 'guest' : `customer:${customerId}`;
}

/**
 * Creates the order's intent at the card provider, in the order's transaction, under a key derived
 * from the order: a place-order replayed by its Idempotency-Key answers the stored payment and
 * never reaches this, and a creation retried by the provider's client makes no second intent.
 */
export async function startCardPayment(
  tx: Db,
  config: Config,
  order: OrderToPay,
  customerId: number | null,
  captureMode: 'automatic' | 'manual',
): Promise<CardPaymentJsonType> {
  const provider = cardProvider(config, tx);
  if (!provider) throw new AppError('PAYWAY_INVALID', 'card payments are not offered');
  const owner = ownerOf(customerId);
  const intent = await atProvider(() =>
    provider.createIntent({
      orderId: order.id,
      amountCents: order.total,
      currency: order.currency,
      captureMode,
      owner,
      idempotencyKey: idempotencyKeyFor(order.id, 'intent'),
    }),
  );
  await preparedRows(
    tx,
    'card_payment_create',
    sql`insert into card_payment (order_id, provider, intent_id, client_secret, status, amount, currency, owner)
      values (${order.id}::int, ${provider.name}, ${intent.intentId}, ${intent.clientSecret}, ${intent.status},
        ${order.total}::int, ${order.currency}, ${owner})`,
  );
  return { provider: provider.name, ...intent, attempts: 0, refunds: [] };
}

/** The card payment of an order as the order answers it, or undefined for other payment methods. */
export async function cardPaymentOf(db: Db, orderId: number): Promise<CardPaymentJsonType | undefined> {
  return (await cardPaymentsOf(db, [orderId])).get(orderId);
}

/** The card payments of a page of orders, by order id, in two queries whatever the page's size. */
export async function cardPaymentsOf(
  db: Db,
  orderIds: readonly number[],
): Promise<Map<number, CardPaymentJsonType>> {
  const found = new Map<number, CardPaymentJsonType>();
  if (orderIds.length === 0) return found;
  const rows = await db
    .select()
    .from(cardPayment)
    .where(inArray(cardPayment.orderId, [...orderIds]));
  if (rows.length === 0) return found;
  const refunds = await db
    .select()
    .from(paymentRefund)
    .where(
      inArray(
        paymentRefund.orderId,
        rows.map((r) => r.orderId),
      ),
    )
    .orderBy(paymentRefund.orderId, paymentRefund.seq);
  const attempts = await attemptsOf(
    db,
    rows.map((r) => r.intentId),
  );
  for (const row of rows) {
    found.set(row.orderId, {
      provider: row.provider,
      intentId: row.intentId,
      clientSecret: row.clientSecret,
      status: row.status,
      attempts: attempts.get(row.intentId) ?? 0,
      refunds: refunds
        .filter((r) => r.orderId === row.orderId)
        .map((r) => ({
          amount: fromCents(r.amount),
          status: r.status,
          providerRefundId: r.providerRefundId,
          at: r.createdAt.toISOString(),
        })),
    });
  }
  return found;
}

const ATTEMPT_EVENTS = ['payment.failed', 'payment.authorized', 'payment.succeeded'];

/** The tries each intent's provider reported: one event per declined or accepted confirmation. */
async function attemptsOf(db: Db, intentIds: readonly string[]): Promise<Map<string, number>> {
  const rows = await db
    // Every decline, and the one try that went through (a capture's success is no second try).
    .select({
      intentId: paymentEvent.intentId,
      n: sql<number>`(count(*) filter (where ${paymentEvent.type} = 'payment.failed')
        + (bool_or(${paymentEvent.type} <> 'payment.failed'))::int)::int`,
    })
    .from(paymentEvent)
    .where(and(inArray(paymentEvent.intentId, [...intentIds]), inArray(paymentEvent.type, ATTEMPT_EVENTS)))
    .groupBy(paymentEvent.intentId);
  return new Map(rows.map((r) => [r.intentId, r.n]));
}
