import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { type MailStatus, mailMessage } from './mail.tables.ts';

export type MailMessageRow = typeof mailMessage.$inferSelect;

/** A page of the mail outbox, newest first, and how many messages it holds. */
export async function pageMail(db: Db, limit: number, offset: number) {
  const rows = await db.select().from(mailMessage).orderBy(desc(mailMessage.id)).limit(limit).offset(offset);
  const [{ total }] = await db.select({ total: count() }).from(mailMessage);
  return { rows, total };
}

// The states a message goes through as the outbox's mail worker sends it (src/modules/outbox).

/** Notes that the pending messages among `ids` have a job. */
export async function markMailJobsQueued(db: Db, ids: readonly number[]): Promise<void> {
  await db
    .update(mailMessage)
    .set({ jobQueued: true })
    .where(and(inArray(mailMessage.id, [...ids]), eq(mailMessage.status, 'pending')));
}

/**
 * Claims attempt `attempt` of a message so that no two workers send it: the message when claimed.
 * A retried job (its worker died) may take the attempt back from `sending`.
 */
export async function claimMailAttempt(
  db: Db,
  messageId: number,
  attempt: number,
  retried: boolean,
): Promise<MailMessageRow | undefined> {
  const claimable = retried
    ? sql`((status = 'pending' and attempts = ${attempt - 1}) or (status = 'sending' and attempts = ${attempt}))`
    : sql`(status = 'pending' and attempts = ${attempt - 1})`;
  const [message] = await db
    .update(mailMessage)
    .set({ status: 'sending', attempts: attempt })
    .where(and(eq(mailMessage.id, messageId), claimable))
    .returning();
  return message;
}

/** A message kept, not sent (no SMTP server configured). */
export async function markMailLogged(db: Db, messageId: number): Promise<void> {
  await db
    .update(mailMessage)
    .set({ status: 'logged', sentAt: sql`now()` })
    .where(eq(mailMessage.id, messageId));
}

/** How an SMTP attempt ended: sent now, due again at `nextAttemptAt`, or dead. */
export interface MailOutcome {
  status: Extract<MailStatus, 'sent' | 'pending' | 'dead'>;
  nextAttemptAt: Date | null;
  lastError: string | null;
}

export async function recordMailOutcome(db: Db, messageId: number, outcome: MailOutcome): Promise<void> {
  await db
    .update(mailMessage)
    .set({ ...outcome, sentAt: outcome.status === 'sent' ? sql`now()` : null, jobQueued: false })
    .where(eq(mailMessage.id, messageId));
}
