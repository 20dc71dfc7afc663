import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client.ts';
import { outbox } from '../outbox/outbox.tables.ts';
import { webhook, webhookDelivery, webhookDeliveryAttempt } from './webhooks.tables.ts';

export type WebhookRow = typeof webhook.$inferSelect;
export type DeliveryRow = typeof webhookDelivery.$inferSelect;
export type AttemptRow = typeof webhookDeliveryAttempt.$inferSelect;

export async function insertWebhook(db: Db, values: typeof webhook.$inferInsert): Promise<WebhookRow> {
  const [row] = await db.insert(webhook).values(values).returning();
  return row;
}

/** `lock`: held until the transaction ends, so an audited change reads the exact row it replaces. */
export async function findWebhook(db: Db, id: number, lock = false): Promise<WebhookRow | undefined> {
  const query = db.select().from(webhook).where(eq(webhook.id, id));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

export async function pageWebhooks(db: Db, limit: number, offset: number) {
  const rows = await db.select().from(webhook).orderBy(asc(webhook.id)).limit(limit).offset(offset);
  const [{ total }] = await db.select({ total: count() }).from(webhook);
  return { rows, total };
}

export async function updateWebhook(
  db: Db,
  id: number,
  values: Partial<typeof webhook.$inferInsert>,
): Promise<WebhookRow | undefined> {
  const [row] = await db
    .update(webhook)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(webhook.id, id))
    .returning();
  return row;
}

export async function deleteWebhook(db: Db, id: number): Promise<boolean> {
  const rows = await db.delete(webhook).where(eq(webhook.id, id)).returning({ id: webhook.id });
  return rows.length > 0;
}

export async function pageDeliveries(db: Db, webhookId: number, limit: number, offset: number) {
  const rows = await db
    .select()
    .from(webhookDelivery)
    .where(eq(webhookDelivery.webhookId, webhookId))
    .orderBy(desc(webhookDelivery.id))
    .limit(limit)
    .offset(offset);
  const [{ total }] = await db
    .select({ total: count() })
    .from(webhookDelivery)
    .where(eq(webhookDelivery.webhookId, webhookId));
  return { rows, total };
}

/** The attempts of a page of deliveries, oldest first (one statement for the page). */
export async function attemptsOf(db: Db, deliveryIds: number[]): Promise<AttemptRow[]> {
  if (deliveryIds.length === 0) return [];
  return db
    .select()
    .from(webhookDeliveryAttempt)
    .where(inArray(webhookDeliveryAttempt.deliveryId, deliveryIds))
    .orderBy(asc(webhookDeliveryAttempt.deliveryId), asc(webhookDeliveryAttempt.id));
}

/**
 * Makes a finished or waiting delivery due now; the relay queues its next attempt. A delivery
 * whose attempt is being sent is left alone (undefined).
 */
export async function makeDeliveryDue(
  db: Db,
  webhookId: number,
  deliveryId: number,
): Promise<DeliveryRow | undefined> {
  const [row] = await db
    .update(webhookDelivery)
    .set({ status: 'pending', jobQueued: false, nextAttemptAt: null, updatedAt: sql`now()` })
    .where(
      and(
        eq(webhookDelivery.id, deliveryId),
        eq(webhookDelivery.webhookId, webhookId),
        sql`${webhookDelivery.status} <> 'sending'`,
      ),
    )
    .returning();
  return row;
}

export async function findDelivery(
  db: Db,
  webhookId: number,
  deliveryId: number,
): Promise<DeliveryRow | undefined> {
  const [row] = await db
    .select()
    .from(webhookDelivery)
    .where(and(eq(webhookDelivery.id, deliveryId), eq(webhookDelivery.webhookId, webhookId)));
  return row;
}

// The states a delivery goes through as the outbox's relay and webhook worker move it (src/modules/outbox).

/** Writes the deliveries of relayed events, their first job already queued; the ids written. */
export async function insertDeliveries(
  db: Db,
  deliveries: readonly { webhookId: number; eventId: number; eventType: string }[],
): Promise<{ id: number }[]> {
  return db
    .insert(webhookDelivery)
    .values(deliveries.map((d) => ({ ...d, jobQueued: true })))
    .onConflictDoNothing()
    .returning({ id: webhookDelivery.id });
}

/** Notes that the pending deliveries among `ids` have a job. */
export async function markDeliveriesQueued(db: Db, ids: readonly number[]): Promise<void> {
  await db
    .update(webhookDelivery)
    .set({ jobQueued: true })
    .where(and(inArray(webhookDelivery.id, [...ids]), eq(webhookDelivery.status, 'pending')));
}

/** A claimed attempt and what it sends (a webhook or event since deleted comes back as nulls). */
export interface ClaimedAttempt {
  deliveryId: number;
  attempt: number;
  url: string | null;
  secret: string;
  active: boolean;
  eventId: number | null;
  type: string;
  payload: unknown;
  createdAt: Date | string;
}

/**
 * Claims attempts (delivery, attempt number) so that exactly one worker sends each, and reads what
 * each sends, in one statement. A retried job (its worker died) may take an attempt back from `sending`.
 */
export async function claimDeliveryAttempts(
  db: Db,
  wanted: readonly { id: number; attempt: number; retried: boolean }[],
): Promise<ClaimedAttempt[]> {
  if (wanted.length === 0) return [];
  return queryRows<ClaimedAttempt>(
    db,
    sql`with wanted as (
          select * from jsonb_to_recordset(${JSON.stringify(wanted)}::jsonb) as w(id int, attempt int, retried boolean)),
        claimed as (
          update ${webhookDelivery} d set status = 'sending', attempts = w.attempt, updated_at = now()
          from wanted w
          where d.id = w.id and ((d.status = 'pending' and d.attempts = w.attempt - 1)
            or (w.retried and d.status = 'sending' and d.attempts = w.attempt))
          returning d.id, d.webhook_id, d.event_id, w.attempt)
        select claimed.id as "deliveryId", claimed.attempt, w.url, w.secret, w.active, e.id as "eventId", e.type,
          e.payload, e.created_at as "createdAt"
        from claimed
        left join ${webhook} w on w.id = claimed.webhook_id
        left join ${outbox} e on e.id = claimed.event_id`,
  );
}

/** How an attempt ended, and the delivery's state after it. */
export interface DeliveryOutcome {
  deliveryId: number;
  attempt: number;
  deliveryStatus: 'succeeded' | 'dead' | 'pending';
  nextAttemptAt: Date | null;
  ok: boolean;
  status: number | null;
  durationMs: number;
  error: string | null;
}

/** Each delivery's latest state and each attempt's record, in one statement for the batch. */
export async function recordDeliveryOutcomes(db: Db, finished: readonly DeliveryOutcome[]): Promise<void> {
  if (finished.length === 0) return;
  const rows = finished.map((f) => ({
    id: f.deliveryId,
    attempt: f.attempt,
    status: f.deliveryStatus,
    next_at: f.nextAttemptAt?.toISOString() ?? null,
    code: f.status,
    ok: f.ok,
    ms: f.durationMs,
    error: f.error,
  }));
  await queryRows(
    db,
    sql`with outcome as (
          select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
            as o(id int, attempt int, status text, next_at timestamptz, code int, ok boolean, ms int, error text)),
        finished as (
          update ${webhookDelivery} d
          set status = o.status, job_queued = false, next_attempt_at = o.next_at, last_response_code = o.code,
              last_duration_ms = o.ms, last_error = o.error, updated_at = now()
          from outcome o
          where d.id = o.id
          returning d.id)
        insert into ${webhookDeliveryAttempt} (delivery_id, attempt, succeeded, response_code, duration_ms, error)
        select o.id, o.attempt, o.ok, o.code, o.ms, o.error
        from outcome o join finished f on f.id = o.id`,
  );
}
