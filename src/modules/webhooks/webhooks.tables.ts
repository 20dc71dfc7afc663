import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/** A subscriber: events matching `events` (or every event with ["*"]) are POSTed to `url`, signed with `secret`. */
export const webhook = pgTable('webhook', {
  id: serial('id').primaryKey(),
  url: text('url').notNull(),
  events: jsonb('events').$type<string[]>().notNull(),
  active: boolean('active').notNull().default(true),
  description: text('description').notNull().default(''),
  /** `whsec_` + base64 of the key bytes; answered only on create and on rotation. */
  secret: text('secret').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export type DeliveryStatus = 'pending' | 'sending' | 'succeeded' | 'dead';

/**
 * One event for one webhook, with the outcome of its latest attempt. `jobQueued` is false until
 * the queue holds a job for the next attempt: a process that dies between writing this row and
 * queueing the job leaves it false, and the relay queues it again (src/modules/outbox/relay.ts).
 */
export const webhookDelivery = pgTable(
  'webhook_delivery',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    webhookId: integer('webhook_id')
      .notNull()
      .references(() => webhook.id, { onDelete: 'cascade' }),
    eventId: bigint('event_id', { mode: 'number' }).notNull(),
    eventType: text('event_type').notNull(),
    status: text('status').$type<DeliveryStatus>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    jobQueued: boolean('job_queued').notNull().default(false),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    lastResponseCode: integer('last_response_code'),
    lastDurationMs: integer('last_duration_ms'),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('webhook_delivery_event_webhook_idx').on(t.eventId, t.webhookId),
    index('webhook_delivery_webhook_idx').on(t.webhookId, t.id),
    index('webhook_delivery_unqueued_idx').on(t.id).where(sql`not job_queued and status = 'pending'`),
  ],
);

/**
 * Every attempt of a delivery, as it ended: the delivery row keeps only the latest, and
 * `GET /rest/system/webhook/{id}/deliveries` answers each delivery's attempts from here.
 */
export const webhookDeliveryAttempt = pgTable(
  'webhook_delivery_attempt',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    deliveryId: bigint('delivery_id', { mode: 'number' })
      .notNull()
      .references(() => webhookDelivery.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    succeeded: boolean('succeeded').notNull(),
    responseCode: integer('response_code'),
    durationMs: integer('duration_ms').notNull(),
    error: text('error'),
    endedAt: timestamp('ended_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('webhook_delivery_attempt_delivery_idx').on(t.deliveryId, t.id)],
);
