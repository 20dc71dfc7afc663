import nodemailer, { type Transporter } from 'nodemailer';
import type { Db } from '../../db/client.ts';
import { keyedJob, type Queue, retryDelayMs } from '../outbox/queue.ts';
import { claimMailAttempt, keepMailsLogged, markMailJobsQueued, recordMailOutcome } from './mail.repo.ts';

export const MAIL_QUEUE = 'mail-send';

export interface MailSettings {
  /** Absent: messages are kept as `logged` and, in development, printed by `log`. */
  smtpUrl?: string;
  from: string;
  printToLog: boolean;
  retryBaseMs: number;
  retryMaxMs: number;
  maxAttempts: number;
}

export interface Mailer {
  settings: MailSettings;
  transport?: Transporter;
  log: (message: { to: string; subject: string; text: string }) => void;
}

/**
 * One SMTP send, whole: bounded so that a job still active past it (and the queue's margin)
 * belongs to a worker that died, and another instance takes it.
 */
export const MAIL_SEND_TIMEOUT_MS = 10_000;

export function createMailer(settings: MailSettings, log: Mailer['log']): Mailer {
  const transport = settings.smtpUrl
    ? nodemailer.createTransport({
        url: settings.smtpUrl,
        connectionTimeout: MAIL_SEND_TIMEOUT_MS,
        greetingTimeout: MAIL_SEND_TIMEOUT_MS,
        socketTimeout: MAIL_SEND_TIMEOUT_MS,
      })
    : undefined;
  return { settings, transport, log };
}

export interface MailJob {
  messageId: number;
  attempt: number;
}

/** Queues the next attempt of each message under an id derived from (message, attempt). */
export async function queueMailJobs(
  db: Db,
  queue: Queue,
  messages: { id: number; attempts: number; nextAttemptAt: Date | null }[],
): Promise<void> {
  if (messages.length === 0) return;
  const jobs = messages.map((m) =>
    keyedJob(
      MAIL_QUEUE,
      `mail:${m.id}:${m.attempts + 1}`,
      { messageId: m.id, attempt: m.attempts + 1 },
      {
        startAfter: m.nextAttemptAt,
      },
    ),
  );
  await queue.insert(jobs);
  await markMailJobsQueued(
    db,
    messages.map((m) => m.id),
  );
}

/** Without an SMTP server: the batch's messages kept as `logged` at once, printed in development. */
export async function keepLogged(
  db: Db,
  mailer: Mailer,
  jobs: readonly { data: MailJob; retryCount: number }[],
): Promise<void> {
  const kept = await keepMailsLogged(
    db,
    jobs.map((job) => ({ ...job.data, retried: job.retryCount > 0 })),
  );
  if (!mailer.settings.printToLog) return;
  for (const message of kept) {
    mailer.log({ to: message.toAddress, subject: message.subject, text: message.textBody });
  }
}

/** Sends one attempt of a message; claimed first so that no two workers send the same attempt. */
export async function runMailAttempt(
  db: Db,
  queue: Queue,
  mailer: Mailer,
  job: { data: MailJob; retryCount: number },
): Promise<void> {
  const { messageId, attempt } = job.data;
  const { settings } = mailer;
  if (!mailer.transport) return keepLogged(db, mailer, [job]);
  const message = await claimMailAttempt(db, messageId, attempt, job.retryCount > 0);
  if (!message) return;
  let error: string | null = null;
  try {
    await mailer.transport.sendMail({
      from: settings.from,
      to: message.toAddress,
      subject: message.subject,
      text: message.textBody,
      html: message.htmlBody,
      signal: AbortSignal.timeout(MAIL_SEND_TIMEOUT_MS),
    });
  } catch (err) {
    error = err instanceof Error ? err.message : String(err);
  }
  const dead = error !== null && attempt >= settings.maxAttempts;
  const next =
    error === null || dead
      ? null
      : new Date(
          Date.now() + retryDelayMs(attempt, settings.retryBaseMs, settings.retryMaxMs, settings.maxAttempts),
        );
  await recordMailOutcome(db, messageId, {
    status: error === null ? 'sent' : dead ? 'dead' : 'pending',
    nextAttemptAt: next,
    lastError: error,
  });
  if (next) await queueMailJobs(db, queue, [{ id: messageId, attempts: attempt, nextAttemptAt: next }]);
}
