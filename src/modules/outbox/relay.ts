import { asc, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { OutboxConsumer } from './consumer.ts';
import { outbox } from './outbox.tables.ts';
import type { Queue } from './queue.ts';

const BATCH = 200;

/**
 * Hands committed events to the consumers, in two crash-safe steps that any instance may run at
 * once: (1) in one transaction, the undelivered outbox rows (locked with SKIP LOCKED, so two
 * instances take different rows) are given to each consumer, which writes what they become and
 * queues its first jobs, and are marked delivered; (2) each consumer queues the rows still without
 * a job (a manual retry), under ids derived from what they send, so a repeated step queues nothing
 * twice. A process killed between the steps leaves rows that the next run picks up. Returns how
 * many outbox rows and jobs it handled.
 */
export async function relayEvents(
  db: Db,
  queue: Queue,
  consumers: readonly OutboxConsumer[],
): Promise<{ events: number; jobs: number }> {
  const handed = await db.transaction(async (tx) => {
    const rows = await tx
      .select({ id: outbox.id, type: outbox.type, payload: outbox.payload })
      .from(outbox)
      .where(isNull(outbox.deliveredAt))
      .orderBy(asc(outbox.id))
      .limit(BATCH)
      .for('update', { skipLocked: true });
    if (rows.length === 0) return { events: 0, jobs: 0 };
    let jobs = 0;
    for (const consumer of consumers) jobs += (await consumer.takeEvents?.(tx, rows, queue)) ?? 0;
    const ids = rows.map((r) => r.id);
    await tx.update(outbox).set({ deliveredAt: sql`now()` }).where(inArray(outbox.id, ids));
    return { events: rows.length, jobs };
  });
  let waiting = 0;
  for (const consumer of consumers) waiting += await consumer.queueWaiting(db, queue);
  return { events: handed.events, jobs: handed.jobs + waiting };
}
