import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
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
