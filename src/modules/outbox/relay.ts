import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { inTransaction, type Queue } from './queue.ts';
import { queueMailJobs } from './mail-delivery.ts';
import { writeMailsForEvent } from '../mail/mail.service.ts';
import { mailMessage } from '../mail/mail.tables.ts';
import { deliveryJobs, queueDeliveryJobs } from './webhook-delivery.ts';
import { insertDeliveries } from '../webhooks/webhooks.repo.ts';
import { webhook, webhookDelivery } from '../webhooks/webhooks.tables.ts';
import { outbox } from './outbox.tables.ts';

const BATCH = 200;

/**
 * Hands committed events to the queue, in two crash-safe steps that any instance may run at
 * once: (1) in one transaction, the undelivered outbox rows (locked with SKIP LOCKED, so two
 * instances take different rows) become one delivery row per subscribed webhook with the jobs of
 * their first attempts, and are marked delivered, and the e-mails the events send are written;
 * (2) deliveries (a manual retry) and messages with no job yet get one, under an id derived from
 * what it sends so a repeated step queues nothing twice. A process killed between the steps leaves
 * rows that the next run picks up. Returns how many outbox rows and jobs it handled.
 */
export async function relayEvents(
  db: Db,
  config: Config,
  queue: Queue,
): Promise<{ events: number; jobs: number }> {
  const handed = await db.transaction((tx) => handOverEvents(tx, config, queue));
  const queued = await queueWhatHasNoJob(db, queue);
  return { events: handed.events, jobs: handed.jobs + queued };
}

/** Step 1: a batch of undelivered events becomes deliveries with their first jobs, and e-mails. */
async function handOverEvents(
  tx: Db,
  config: Config,
  queue: Queue,
): Promise<{ events: number; jobs: number }> {
  const rows = await tx
    .select({ id: outbox.id, type: outbox.type, payload: outbox.payload })
    .from(outbox)
    .where(isNull(outbox.deliveredAt))
    .orderBy(asc(outbox.id))
    .limit(BATCH)
    .for('update', { skipLocked: true });
  if (rows.length === 0) return { events: 0, jobs: 0 };
  const hooks = await tx
    .select({ id: webhook.id, events: webhook.events })
    .from(webhook)
    .where(eq(webhook.active, true));
  const deliveries = rows.flatMap((event) =>
    hooks
      .filter((hook) => hook.events.includes('*') || hook.events.includes(event.type))
      .map((hook) => ({ webhookId: hook.id, eventId: event.id, eventType: event.type })),
  );
  let jobs = 0;
  if (deliveries.length > 0) {
    // Their jobs commit with them: nothing to note afterwards, nothing to find unqueued.
    const written = await insertDeliveries(tx, deliveries);
    const firstJobs = deliveryJobs(written.map(({ id }) => ({ id, attempts: 0, nextAttemptAt: null })));
    if (firstJobs.length > 0) await queue.insert(firstJobs, { db: inTransaction(tx) });
    jobs = firstJobs.length;
  }
  for (const event of rows) await writeMailsForEvent(tx, config, event);
  await tx
    .update(outbox)
    .set({ deliveredAt: sql`now()` })
    .where(
      inArray(
        outbox.id,
        rows.map((r) => r.id),
      ),
    );
  return { events: rows.length, jobs };
}

/** Step 2: deliveries (a manual retry) and messages with no job yet get one; how many. */
async function queueWhatHasNoJob(db: Db, queue: Queue): Promise<number> {
  const unqueued = await db
    .select({
      id: webhookDelivery.id,
      attempts: webhookDelivery.attempts,
      nextAttemptAt: webhookDelivery.nextAttemptAt,
    })
    .from(webhookDelivery)
    .where(and(eq(webhookDelivery.jobQueued, false), eq(webhookDelivery.status, 'pending')))
    .orderBy(asc(webhookDelivery.id))
    .limit(BATCH * 5);
  await queueDeliveryJobs(db, queue, unqueued);
  const unsent = await db
    .select({ id: mailMessage.id, attempts: mailMessage.attempts, nextAttemptAt: mailMessage.nextAttemptAt })
    .from(mailMessage)
    .where(and(eq(mailMessage.jobQueued, false), eq(mailMessage.status, 'pending')))
    .orderBy(asc(mailMessage.id))
    .limit(BATCH * 5);
  await queueMailJobs(db, queue, unsent);
  return unqueued.length + unsent.length;
}
