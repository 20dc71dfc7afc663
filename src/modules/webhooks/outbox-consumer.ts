import { and, asc, eq } from 'drizzle-orm';
import { privateWebhookTargetsAllowed, webhookTargetsHttpsOnly } from '../../config.ts';
import type { OutboxConsumerFactory, OutboxEvent } from '../outbox/consumer.ts';
import { inTransaction } from '../outbox/queue.ts';
import type { Db } from '../../db/client.ts';
import {
  DELIVERY_QUEUE,
  type DeliveryJob,
  type DeliverySettings,
  deliveryJobs,
  queueDeliveryJobs,
  runDeliveryAttempts,
} from './delivery.ts';
import { insertDeliveries } from './webhooks.repo.ts';
import { webhook, webhookDelivery } from './webhooks.tables.ts';

/** A delivery job holds up to 50 attempts; a poll fetches this many jobs. */
const DELIVERY_BATCH = 4;
const WAITING_BATCH = 1000;

/** The deliveries an event makes: one per active webhook subscribed to its type. */
async function deliveriesOf(tx: Db, events: readonly OutboxEvent[]) {
  const hooks = await tx
    .select({ id: webhook.id, events: webhook.events })
    .from(webhook)
    .where(eq(webhook.active, true));
  return events.flatMap((event) =>
    hooks
      .filter((hook) => hook.events.includes('*') || hook.events.includes(event.type))
      .map((hook) => ({ webhookId: hook.id, eventId: event.id, eventType: event.type })),
  );
}

/** Webhook deliveries as a consumer of the outbox (docs/events.md). */
export const webhookConsumer: OutboxConsumerFactory<DeliveryJob> = (app) => {
  const { config } = app;
  const settings: DeliverySettings = {
    timeoutMs: config.webhooks.timeoutMs,
    allowPrivate: privateWebhookTargetsAllowed(config),
    httpsOnly: webhookTargetsHttpsOnly(config),
    retryBaseMs: config.jobs.retryBaseMs,
    retryMaxMs: config.jobs.retryMaxMs,
    maxAttempts: config.jobs.maxAttempts,
    onNetworkError: (failure) => app.log.warn({ webhook: failure }, 'webhook attempt failed'),
  };
  return {
    queue: DELIVERY_QUEUE,
    jobBoundMs: config.webhooks.timeoutMs,
    batchSize: DELIVERY_BATCH,
    async takeEvents(tx, events, queue) {
      const deliveries = await deliveriesOf(tx, events);
      if (deliveries.length === 0) return 0;
      // Their jobs commit with them: nothing to note afterwards, nothing to find unqueued.
      const written = await insertDeliveries(tx, deliveries);
      const jobs = deliveryJobs(written.map(({ id }) => ({ id, attempts: 0, nextAttemptAt: null })));
      if (jobs.length > 0) await queue.insert(jobs, { db: inTransaction(tx) });
      return jobs.length;
    },
    async queueWaiting(db, queue) {
      const unqueued = await db
        .select({
          id: webhookDelivery.id,
          attempts: webhookDelivery.attempts,
          nextAttemptAt: webhookDelivery.nextAttemptAt,
        })
        .from(webhookDelivery)
        .where(and(eq(webhookDelivery.jobQueued, false), eq(webhookDelivery.status, 'pending')))
        .orderBy(asc(webhookDelivery.id))
        .limit(WAITING_BATCH);
      await queueDeliveryJobs(db, queue, unqueued);
      return unqueued.length;
    },
    async run(jobs, queue) {
      try {
        await runDeliveryAttempts(app.db, queue, jobs, settings);
      } catch (err) {
        // The batch goes back to pg-boss, which retries its jobs; a claimed attempt is sent again.
        app.log.error({ err, jobs: jobs.length }, 'webhook deliveries failed to run');
        throw err;
      }
    },
  };
};
