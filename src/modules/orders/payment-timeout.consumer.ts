import { and, asc, eq, lt, sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { OutboxConsumerFactory } from '../outbox/consumer.ts';
import { keyedJob } from '../outbox/queue.ts';
import { findOrder } from './order.repo.ts';
import { moveOrder } from './order.service.ts';
import { salesOrders } from './order.tables.ts';

// Card orders nobody paid are cancelled `payments.pendingTimeoutMinutes` after they were placed
// (docs/payments.md), by the job queue, through the same cancel as everyone's: stock, coupon use
// and points go back, the open intent is closed at its provider. A success that still arrives
// later is refunded by the webhook (payments' webhook.service.ts).

export const PAYMENT_TIMEOUT_QUEUE = 'payments-pending-timeout';
const OVERDUE_BATCH = 200;

interface TimeoutJob {
  orderId: number;
}

/** The overdue orders: placed for card, still pending and unpaid, older than the timeout. */
function overdue(minutes: number) {
  return and(
    eq(salesOrders.status, 'pending'),
    eq(salesOrders.paymentStatus, 'pending'),
    eq(salesOrders.payWay, 'card'),
    lt(salesOrders.createdAt, sql`now() - make_interval(mins => ${minutes})`),
  );
}

/** Cancels the order if, with its row locked, it is still pending and unpaid: a payment may have won. */
export async function cancelUnpaid(db: Db, config: Config, orderId: number): Promise<void> {
  await db.transaction(async (tx) => {
    const order = await findOrder(tx, orderId, undefined, true);
    if (order?.status !== 'pending' || order.paymentStatus !== 'pending') return;
    const minutes = config.payments.pendingTimeoutMinutes;
    await moveOrder(tx, config, order, {
      to: 'cancelled',
      actor: { kind: 'system', name: 'payments' },
      reason: `not paid within ${minutes} minutes`,
    });
  });
}

export const paymentTimeoutConsumer: OutboxConsumerFactory<TimeoutJob> = (app) => ({
  queue: PAYMENT_TIMEOUT_QUEUE,
  jobBoundMs: 30_000,
  batchSize: 20,
  async queueWaiting(db, queue) {
    const due = await db
      .select({ id: salesOrders.id })
      .from(salesOrders)
      .where(overdue(app.config.payments.pendingTimeoutMinutes))
      .orderBy(asc(salesOrders.createdAt))
      .limit(OVERDUE_BATCH);
    if (due.length === 0) return 0;
    // One job per order however many passes see it: pg-boss ignores a job id it already holds.
    const jobs = due.map((o) =>
      keyedJob<TimeoutJob>(
        PAYMENT_TIMEOUT_QUEUE,
        `payments-timeout:${o.id}`,
        { orderId: o.id },
        { retryLimit: 5 },
      ),
    );
    await queue.insert(jobs);
    return 0;
  },
  async run(jobs) {
    for (const job of jobs) await cancelUnpaid(app.db, app.config, job.data.orderId);
  },
});
