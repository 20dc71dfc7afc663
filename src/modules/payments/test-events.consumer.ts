import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
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
    async run(jobs) {
      for (const job of jobs) {
        const [event] = await app.db
          .select()
          .from(testPaymentEvent)
          .where(and(eq(testPaymentEvent.id, job.data.eventId), isNull(testPaymentEvent.deliveredAt)));
        if (!event) continue;
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
        // 5xx: the shop could not take it now; throwing hands the batch back for a retry.
        if (res.statusCode >= 500) throw new Error(`the webhook answered ${res.statusCode}`);
        await app.db
          .update(testPaymentEvent)
          .set({ deliveredAt: sql`now()` })
          .where(eq(testPaymentEvent.id, event.id));
      }
    },
  };
};
