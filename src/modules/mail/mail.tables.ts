import { sql } from 'drizzle-orm';
import { bigserial, boolean, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** pending → sending → sent, or logged (no SMTP_URL: kept and printed), or dead after the last attempt. */
export type MailStatus = 'pending' | 'sending' | 'sent' | 'logged' | 'dead';

/**
 * The mail outbox: every message, rendered in the shop's locale, written in the transaction of
 * its cause and sent by the job queue. `jobQueued` plays the part it plays for webhook deliveries.
 */
export const mailMessage = pgTable(
  'mail_message',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    template: text('template').notNull(),
    locale: text('locale').notNull(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    htmlBody: text('html_body').notNull(),
    status: text('status').$type<MailStatus>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    jobQueued: boolean('job_queued').notNull().default(false),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [index('mail_message_unqueued_idx').on(t.id).where(sql`not job_queued and status = 'pending'`)],
);
