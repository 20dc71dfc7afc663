import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { preparedRows } from '../../db/statements.ts';
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
  const [message] = await db
    .update(mailMessage)
    .set({ status: 'sending', attempts: attempt })
    .where(claimable(messageId, attempt, retried))
    .returning();
  return message;
}

function claimable(messageId: number, attempt: number, retried: boolean) {
  const free = retried
    ? sql`((status = 'pending' and attempts = ${attempt - 1}) or (status = 'sending' and attempts = ${attempt}))`
    : sql`(status = 'pending' and attempts = ${attempt - 1})`;
  return and(eq(mailMessage.id, messageId), free);
}

/** One job's attempt at a message: the attempt's number, and whether the job ran before (its worker died). */
export interface MailAttempt {
  messageId: number;
  attempt: number;
  retried: boolean;
}

/**
 * With no SMTP server configured, a message is kept, not sent: claimed and marked `logged` at
 * once, since nothing leaves the shop between the two. A batch of jobs in one statement, each
 * attempt claimed as `claimable` claims one; answers the messages kept.
 */
export async function keepMailsLogged(
  db: Db,
  attempts: readonly MailAttempt[],
): Promise<Pick<MailMessageRow, 'toAddress' | 'subject' | 'textBody'>[]> {
  if (attempts.length === 0) return [];
  return preparedRows(
    db,
    'mail_keep_logged',
    sql`update mail_message m set status = 'logged', attempts = j.attempt, sent_at = now()
      from json_to_recordset(${JSON.stringify(attempts)}::json) as j("messageId" bigint, attempt int, retried boolean)
      where m.id = j."messageId" and ((m.status = 'pending' and m.attempts = j.attempt - 1)
        or (j.retried and m.status = 'sending' and m.attempts = j.attempt))
      returning m.to_address as "toAddress", m.subject, m.text_body as "textBody"`,
  );
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
