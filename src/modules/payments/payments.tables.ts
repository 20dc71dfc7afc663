import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import type { CardPaymentStatus } from './payment-events.ts';

// The payments module's tables (docs/payments.md). Orders are named by a plain id, not a foreign
// key, so the payments tables sit below the orders module (as coupon redemptions do).

/** An order's card payment at its provider: one per order, created with the order. */
export const cardPayment = pgTable('card_payment', {
  orderId: integer('order_id').primaryKey(),
  provider: text('provider').notNull(),
  intentId: text('intent_id').notNull().unique(),
  clientSecret: text('client_secret').notNull(),
  status: text('status').$type<CardPaymentStatus>().notNull(),
  amount: integer('amount').notNull(),
  currency: text('currency').notNull(),
  /** `customer:<id>` or `guest`: who may see and confirm the intent. */
  owner: text('owner').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Provider events already processed: each event id once. */
export const paymentEvent = pgTable(
  'payment_event',
  {
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    type: text('type').notNull(),
    intentId: text('intent_id').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.eventId] })],
);

/** Refunds sent to the provider, numbered per order (the number is in the idempotency key). */
export const paymentRefund = pgTable(
  'payment_refund',
  {
    orderId: integer('order_id').notNull(),
    seq: integer('seq').notNull(),
    amount: integer('amount').notNull(),
    status: text('status').$type<'pending' | 'succeeded' | 'failed'>().notNull().default('pending'),
    providerRefundId: text('provider_refund_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.orderId, t.seq] })],
);

/** The test provider's own intents (what a real provider keeps on its side). */
export const testPaymentIntent = pgTable('test_payment_intent', {
  id: text('id').primaryKey(),
  clientSecret: text('client_secret').notNull(),
  idempotencyKey: text('idempotency_key').notNull().unique(),
  orderId: integer('order_id').notNull(),
  amount: integer('amount').notNull(),
  currency: text('currency').notNull(),
  captureMode: text('capture_mode').$type<'automatic' | 'manual'>().notNull(),
  owner: text('owner').notNull(),
  status: text('status').$type<CardPaymentStatus>().notNull().default('requires_payment_method'),
  attempts: integer('attempts').notNull().default(0),
  refunded: integer('refunded').notNull().default(0),
  /** Idempotency keys of the refunds taken: a key sent again takes nothing more. */
  refundKeys: jsonb('refund_keys').$type<string[]>().notNull().default([]),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The test provider's events, signed and posted to the webhook by the job queue. */
export const testPaymentEvent = pgTable(
  'test_payment_event',
  {
    id: text('id').primaryKey(),
    payload: jsonb('payload').notNull(),
    jobQueued: boolean('job_queued').notNull().default(false),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('test_payment_event_unqueued_idx').on(t.createdAt).where(sql`not job_queued`)],
);
