import type { FastifyPluginAsync } from 'fastify';
import type PgBoss from 'pg-boss';
import { mailPrintedToLog, privateWebhookTargetsAllowed, webhookTargetsHttpsOnly } from '../../config.ts';
import { relayEvents } from './relay.ts';
import { createMailer, MAIL_QUEUE, MAIL_SEND_TIMEOUT_MS, runMailAttempt } from './mail-delivery.ts';
import {
  DELIVERY_QUEUE,
  type DeliveryJob,
  type DeliverySettings,
  runDeliveryAttempts,
} from './webhook-delivery.ts';
import { type Queue, startQueue, stopQueue } from './queue.ts';
import { scheduleVacuum, VACUUM_QUEUE, vacuumDatabase } from './vacuum.ts';

/**
 * A delivery job still active this long after its attempts' bound belongs to a worker that died:
 * pg-boss's maintenance, run every EXPIRY_SWEEP_SECONDS on PostgreSQL, hands it to another
 * instance. (pg-boss 10 has no worker heartbeat: the expiry is the only sign of a dead worker.)
 */
const EXPIRY_MARGIN_SECONDS = 5;
const EXPIRY_SWEEP_SECONDS = 5;

function expiryPolicy(name: string, boundMs: number): PgBoss.Queue {
  return { name, expireInSeconds: Math.ceil(boundMs / 1000) + EXPIRY_MARGIN_SECONDS };
}

/** Jobs fetched by one poll of a worker, and sent at once (a delivery job holds up to 50 attempts). */
const DELIVERY_BATCH = 4;
const MAIL_BATCH = 10;

/**
 * Starts the queue, the delivery workers and the relay with the app, and stops them before the
 * database closes. With `jobs.enabled` false nothing runs: events are still written and wait
 * for an instance that delivers them.
 */
export const outboxModule: FastifyPluginAsync = async (app) => {
  const { config } = app;
  if (!config.jobs.enabled) return;
  let queue: Queue | undefined;
  let relayTimer: NodeJS.Timeout | undefined;
  let relaying: Promise<void> | undefined;
  let stopping = false;
  const settings: DeliverySettings = {
    timeoutMs: config.webhooks.timeoutMs,
    allowPrivate: privateWebhookTargetsAllowed(config),
    httpsOnly: webhookTargetsHttpsOnly(config),
    retryBaseMs: config.jobs.retryBaseMs,
    retryMaxMs: config.jobs.retryMaxMs,
    maxAttempts: config.jobs.maxAttempts,
    onNetworkError: (failure) => app.log.warn({ webhook: failure }, 'webhook attempt failed'),
  };

  const running = new Set<Promise<unknown>>();
  /** A worker's handler, counted while it runs; a batch handed out during shutdown goes back to the queue. */
  const counted =
    <J>(handler: (jobs: J) => Promise<void>) =>
    async (jobs: J): Promise<void> => {
      if (stopping) throw new Error('shutting down: these jobs run again later');
      const run = handler(jobs);
      running.add(run);
      try {
        await run;
      } finally {
        running.delete(run);
      }
    };

  app.addHook('onReady', async () => {
    const embedded = app.database.engine === 'pglite';
    const sweep = Math.max(1, Math.round(config.jobs.relayIntervalMs / 1000) * 30);
    const q = await startQueue(app.db, {
      onError: (err) => app.log.error({ err }, 'job queue error'),
      // PGlite hands a dead process's jobs out again at start (startQueue): no hurry to expire them.
      maintenanceIntervalSeconds: embedded ? sweep : Math.min(EXPIRY_SWEEP_SECONDS, sweep),
      embedded,
    });
    queue = q;
    // Updated as well as created: a queue an earlier version created takes the policy too.
    const deliveryPolicy = expiryPolicy(DELIVERY_QUEUE, config.webhooks.timeoutMs);
    await q.createQueue(DELIVERY_QUEUE, deliveryPolicy);
    await q.updateQueue(DELIVERY_QUEUE, deliveryPolicy);
    let workerId = '';
    workerId = await q.work<DeliveryJob>(
      DELIVERY_QUEUE,
      {
        batchSize: DELIVERY_BATCH,
        pollingIntervalSeconds: config.jobs.pollIntervalSeconds,
        includeMetadata: true,
      },
      counted(async (jobs) => {
        // A full batch means more are waiting: fetch again at once instead of after the poll interval.
        if (jobs.length === DELIVERY_BATCH) q.notifyWorker(workerId);
        try {
          await runDeliveryAttempts(app.db, q, jobs, settings);
        } catch (err) {
          // The batch goes back to pg-boss, which retries its jobs; a claimed attempt is sent again.
          app.log.error({ err, jobs: jobs.length }, 'webhook deliveries failed to run');
          throw err;
        }
      }),
    );
    const mailPolicy = expiryPolicy(MAIL_QUEUE, MAIL_SEND_TIMEOUT_MS);
    await q.createQueue(MAIL_QUEUE, mailPolicy);
    await q.updateQueue(MAIL_QUEUE, mailPolicy);
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
    let mailWorkerId = '';
    mailWorkerId = await q.work<{ messageId: number; attempt: number }>(
      MAIL_QUEUE,
      {
        batchSize: MAIL_BATCH,
        pollingIntervalSeconds: config.jobs.pollIntervalSeconds,
        includeMetadata: true,
      },
      counted(async (jobs) => {
        if (jobs.length === MAIL_BATCH) q.notifyWorker(mailWorkerId);
        await Promise.all(
          jobs.map(async (job) => {
            try {
              await runMailAttempt(app.db, q, mailer, job);
            } catch (err) {
              app.log.error({ err, job: job.id }, 'e-mail failed to run');
              await q.fail(MAIL_QUEUE, job.id).catch(() => {});
            }
          }),
        );
      }),
    );
    if (embedded) {
      // PGlite has no autovacuum (src/modules/outbox/vacuum.ts).
      await q.work(
        VACUUM_QUEUE,
        { pollingIntervalSeconds: config.jobs.pollIntervalSeconds },
        counted(async () => {
          const started = Date.now();
          await vacuumDatabase(app.db);
          app.log.info({ ms: Date.now() - started }, 'database vacuumed');
        }),
      );
      await scheduleVacuum(q);
    }
    const relayOnce = async () => {
      try {
        for (;;) {
          const handled = await relayEvents(app.db, config, q);
          if (handled.jobs > 0) {
            q.notifyWorker(workerId);
            q.notifyWorker(mailWorkerId);
          }
          if (handled.events < 200 || stopping) break;
        }
      } catch (err) {
        if (!stopping) app.log.error({ err }, 'event relay failed');
      }
    };
    const tick = () => {
      relaying = relayOnce().finally(() => {
        relaying = undefined;
        if (!stopping) relayTimer = setTimeout(tick, config.jobs.relayIntervalMs);
      });
    };
    tick();
  });

  app.addHook('onClose', async () => {
    stopping = true;
    clearTimeout(relayTimer);
    try {
      await relaying;
      // Waits for the attempts in flight (each bounded by the webhook timeout) before the database
      // closes, within the process's shutdown grace.
      const timeout = Math.max(
        1000,
        Math.min(config.webhooks.timeoutMs + 5000, config.http.shutdownGraceMs - 1000),
      );
      if (queue) await stopQueue(queue, { graceful: true, wait: true, timeout }, running);
    } catch (err) {
      // Nothing is lost: an attempt cut short runs again after it expires (docs/events.md).
      app.log.warn({ err }, 'the job queue did not stop cleanly');
    }
  });
};
