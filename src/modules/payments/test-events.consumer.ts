import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { OutboxConsumerFactory } from '../outbox/consumer.ts';
import { keyedJob } from '../outbox/queue.ts';
import { testPaymentEvent } from './payments.tables.ts';
import { TEST_SIGNATURE_HEADER, testProviderSecret } from './providers/test.ts';
import { signEvent } from './signature.ts';

// The test provider's events reach the shop as a real provider's do: signed, POSTed to
// /rest/payments/test/webhook, later than the step that caused them, by the job queue. An event
// is queued once (its job id derived from the event id) and retried by pg-boss until a 2xx or 4xx.

export const TEST_EVENTS_QUEUE = 'payments-test-events';
const WAITING_BATCH = 500;

interface TestEventJob {
  eventId: string;
}

export const testPaymentEventsConsumer: OutboxConsumerFactory<TestEventJob> = (app) => {
  const secret = testProviderSecret(app.tokens);
  return {
    queue: TEST_EVENTS_QUEUE,
    jobBoundMs: 10_000,
    batchSize: 50,
    async queueWaiting(db, queue) {
      const waiting = await db
        .select({ id: testPaymentEvent.id })
        .from(testPaymentEvent)
        .where(eq(testPaymentEvent.jobQueued, false))
        .orderBy(asc(testPaymentEvent.createdAt))
        .limit(WAITING_BATCH);
      if (waiting.length === 0) return 0;
      const jobs = waiting.map((e) =>
        keyedJob<TestEventJob>(
          TEST_EVENTS_QUEUE,
          `payments-test:${e.id}`,
          { eventId: e.id },
          { retryLimit: 5 },
        ),
      );
      await queue.insert(jobs);
      const ids = waiting.map((e) => e.id);
      await db.update(testPaymentEvent).set({ jobQueued: true }).where(inArray(testPaymentEvent.id, ids));
      return waiting.length;
    },
    run: (jobs) =>
      deliverEvents(
        app,
        secret,
        jobs.map((job) => job.data.eventId),
      ),
  };
};

/** How many intents' events are posted at once: a provider delivers to a shop concurrently. */
const DELIVERIES_AT_ONCE = 8;

/**
 * Posts the events still undelivered to the webhook, signed, and marks those it took. One intent's
 * events go one after the other, in the order they happened; different intents' concurrently.
 */
async function deliverEvents(app: FastifyInstance, secret: string, ids: string[]): Promise<void> {
  const events = await app.db
    .select({ id: testPaymentEvent.id, payload: testPaymentEvent.payload })
    .from(testPaymentEvent)
    .where(and(inArray(testPaymentEvent.id, ids), isNull(testPaymentEvent.deliveredAt)))
    .orderBy(asc(testPaymentEvent.createdAt));
  const byIntent = new Map<string, { id: string; payload: unknown }[]>();
  for (const event of events) {
    const intentId = (event.payload as { data?: { intentId?: string } }).data?.intentId ?? event.id;
    const queue = byIntent.get(intentId);
    if (queue) queue.push(event);
    else byIntent.set(intentId, [event]);
  }
  const delivered: string[] = [];
  let refused: number | undefined;
  const post = async (event: { id: string; payload: unknown }) => {
    const rawBody = JSON.stringify(event.payload);
    const res = await app.inject({
      method: 'POST',
      url: '/rest/payments/test/webhook',
      headers: {
        'content-type': 'application/json',
        [TEST_SIGNATURE_HEADER]: signEvent(rawBody, secret, new Date()),
      },
      payload: rawBody,
    });
    if (res.statusCode >= 500) refused = res.statusCode;
    else delivered.push(event.id);
  };
  const intents = [...byIntent.values()];
  const lane = async () => {
    for (let next = intents.shift(); next !== undefined; next = intents.shift()) {
      for (const event of next) await post(event);
    }
  };
  await Promise.all(Array.from({ length: Math.min(DELIVERIES_AT_ONCE, intents.length) }, lane));
  if (delivered.length > 0) {
    await app.db
      .update(testPaymentEvent)
      .set({ deliveredAt: sql`now()` })
      .where(inArray(testPaymentEvent.id, delivered));
  }
  // 5xx: the shop could not take it now; throwing hands the batch back for a retry, which skips
  // the events already delivered.
  if (refused !== undefined) throw new Error(`the webhook answered ${refused}`);
}
