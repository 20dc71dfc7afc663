import { and, asc, eq } from 'drizzle-orm';
import { mailPrintedToLog } from '../../config.ts';
import type { OutboxConsumerFactory } from '../outbox/consumer.ts';
import {
  createMailer,
  keepLogged,
  MAIL_QUEUE,
  MAIL_SEND_TIMEOUT_MS,
  type MailJob,
  queueMailJobs,
  runMailAttempt,
} from './mail.delivery.ts';
import { writeMailsForEvents } from './mail.service.ts';
import { mailMessage } from './mail.tables.ts';

/** SMTP sends run together; messages only kept (no SMTP server) are kept by the hundred. */
const MAIL_BATCH = 10;
const KEPT_BATCH = 100;
const WAITING_BATCH = 1000;

/** The e-mails events send, as a consumer of the outbox (docs/events.md). */
export const mailConsumer: OutboxConsumerFactory<MailJob> = (app) => {
  const { config } = app;
  const mailer = createMailer(
    {
      smtpUrl: config.mail.smtpUrl,
      from: config.mail.from,
      printToLog: mailPrintedToLog(config),
      retryBaseMs: config.jobs.retryBaseMs,
      retryMaxMs: config.jobs.retryMaxMs,
      maxAttempts: config.jobs.maxAttempts,
    },
    (message) => app.log.info({ mail: message }, 'e-mail (no SMTP_URL: kept in the outbox, not sent)'),
  );
  return {
    queue: MAIL_QUEUE,
    jobBoundMs: MAIL_SEND_TIMEOUT_MS,
    batchSize: mailer.transport ? MAIL_BATCH : KEPT_BATCH,
    // The messages are written here and queued by queueWaiting, just after the transaction.
    async takeEvents(tx, events) {
      await writeMailsForEvents(tx, config, events);
      return 0;
    },
    async queueWaiting(db, queue) {
      const unsent = await db
        .select({
          id: mailMessage.id,
          attempts: mailMessage.attempts,
          nextAttemptAt: mailMessage.nextAttemptAt,
        })
        .from(mailMessage)
        .where(and(eq(mailMessage.jobQueued, false), eq(mailMessage.status, 'pending')))
        .orderBy(asc(mailMessage.id))
        .limit(WAITING_BATCH);
      await queueMailJobs(db, queue, unsent);
      return unsent.length;
    },
    async run(jobs, queue) {
      // Nothing leaves the shop: one statement keeps the whole batch (throwing hands it back).
      if (!mailer.transport) return keepLogged(app.db, mailer, jobs);
      await Promise.all(
        jobs.map(async (job) => {
          try {
            await runMailAttempt(app.db, queue, mailer, job);
          } catch (err) {
            app.log.error({ err, job: job.id }, 'e-mail failed to run');
            await queue.fail(MAIL_QUEUE, job.id).catch(() => {});
          }
        }),
      );
    },
  };
};
