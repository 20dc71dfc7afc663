import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type PgBoss from 'pg-boss';
import type { OutboxConsumer, OutboxConsumerFactory } from './consumer.ts';
import { type Queue, startQueue, stopQueue } from './queue.ts';
import { relayEvents } from './relay.ts';
import { scheduleVacuum, VACUUM_QUEUE, vacuumDatabase } from './vacuum.ts';

/**
 * A job still active this long after its bound belongs to a worker that died: pg-boss's
 * maintenance, run every EXPIRY_SWEEP_SECONDS on PostgreSQL, hands it to another instance.
 * (pg-boss 10 has no worker heartbeat: the expiry is the only sign of a dead worker.)
 */
const EXPIRY_MARGIN_SECONDS = 5;
const EXPIRY_SWEEP_SECONDS = 5;
/** A relay pass that handled this many events runs again at once. */
const RELAY_BATCH = 200;

/** The running pipeline of one instance: what onClose must stop. */
interface Pipeline {
  queue?: Queue;
  relayTimer?: NodeJS.Timeout;
  relaying?: Promise<void>;
  stopping: boolean;
  /** Handlers in flight, awaited at shutdown. */
  running: Set<Promise<unknown>>;
}

/** A worker's handler, counted while it runs; a batch handed out during shutdown goes back to the queue. */
function counted<J>(pipeline: Pipeline, handler: (jobs: J) => Promise<void>) {
  return async (jobs: J): Promise<void> => {
    if (pipeline.stopping) throw new Error('shutting down: these jobs run again later');
    const run = handler(jobs);
    pipeline.running.add(run);
    try {
      await run;
    } finally {
      pipeline.running.delete(run);
    }
  };
}

async function startQueueFor(app: FastifyInstance): Promise<Queue> {
  const { config } = app;
  const embedded = app.database.engine === 'pglite';
  const sweep = Math.max(1, Math.round(config.jobs.relayIntervalMs / 1000) * 30);
  return startQueue(app.db, {
    onError: (err) => app.log.error({ err }, 'job queue error'),
    // PGlite hands a dead process's jobs out again at start (startQueue): no hurry to expire them.
    maintenanceIntervalSeconds: embedded ? sweep : Math.min(EXPIRY_SWEEP_SECONDS, sweep),
    embedded,
  });
}

/** Creates the consumer's queue with its expiry and starts its worker; returns the worker's id. */
async function startWorker(
  app: FastifyInstance,
  q: Queue,
  pipeline: Pipeline,
  consumer: OutboxConsumer,
): Promise<string> {
  // Updated as well as created: a queue an earlier version created takes the policy too.
  const policy: PgBoss.Queue = {
    name: consumer.queue,
    expireInSeconds: Math.ceil(consumer.jobBoundMs / 1000) + EXPIRY_MARGIN_SECONDS,
  };
  await q.createQueue(consumer.queue, policy);
  await q.updateQueue(consumer.queue, policy);
  let workerId = '';
  const options = {
    batchSize: consumer.batchSize,
    pollingIntervalSeconds: app.config.jobs.pollIntervalSeconds,
    includeMetadata: true as const,
  };
  workerId = await q.work<object>(
    consumer.queue,
    options,
    counted(pipeline, async (jobs: PgBoss.JobWithMetadata<object>[]) => {
      // A full batch means more are waiting: fetch again at once instead of after the poll interval.
      if (jobs.length === consumer.batchSize) q.notifyWorker(workerId);
      await consumer.run(jobs, q);
    }),
  );
  return workerId;
}

/** PGlite has no autovacuum (vacuum.ts): the queue runs it. */
async function startVacuum(app: FastifyInstance, q: Queue, pipeline: Pipeline): Promise<void> {
  await q.work(
    VACUUM_QUEUE,
    { pollingIntervalSeconds: app.config.jobs.pollIntervalSeconds },
    counted(pipeline, async () => {
      const started = Date.now();
      await vacuumDatabase(app.db);
      app.log.info({ ms: Date.now() - started }, 'database vacuumed');
    }),
  );
  await scheduleVacuum(q);
}

/** Relays events every relayIntervalMs, waking the workers when it queued jobs. */
function startRelay(
  app: FastifyInstance,
  q: Queue,
  pipeline: Pipeline,
  consumers: readonly OutboxConsumer[],
  workerIds: readonly string[],
): void {
  const relayOnce = async () => {
    try {
      for (;;) {
        const handled = await relayEvents(app.db, q, consumers);
        if (handled.jobs > 0) for (const id of workerIds) q.notifyWorker(id);
        if (handled.events < RELAY_BATCH || pipeline.stopping) break;
      }
    } catch (err) {
      if (!pipeline.stopping) app.log.error({ err }, 'event relay failed');
    }
  };
  const tick = () => {
    pipeline.relaying = relayOnce().finally(() => {
      pipeline.relaying = undefined;
      if (!pipeline.stopping) pipeline.relayTimer = setTimeout(tick, app.config.jobs.relayIntervalMs);
    });
  };
  tick();
}

async function stopPipeline(app: FastifyInstance, pipeline: Pipeline): Promise<void> {
  const { config } = app;
  pipeline.stopping = true;
  clearTimeout(pipeline.relayTimer);
  try {
    await pipeline.relaying;
    // Waits for the work in flight (each job bounded) before the database closes, within the
    // process's shutdown grace.
    const timeout = Math.max(
      1000,
      Math.min(config.webhooks.timeoutMs + 5000, config.http.shutdownGraceMs - 1000),
    );
    if (pipeline.queue)
      await stopQueue(pipeline.queue, { graceful: true, wait: true, timeout }, pipeline.running);
  } catch (err) {
    // Nothing is lost: a job cut short runs again after it expires (docs/events.md).
    app.log.warn({ err }, 'the job queue did not stop cleanly');
  }
}

/**
 * The outbox pipeline: starts the queue, the consumers' workers and the relay with the app, and
 * stops them before the database closes. With `jobs.enabled` false nothing runs: events are still
 * written and wait for an instance that delivers them.
 */
export function outboxModule(factories: readonly OutboxConsumerFactory[]): FastifyPluginAsync {
  return async (app) => {
    if (!app.config.jobs.enabled) return;
    const pipeline: Pipeline = { stopping: false, running: new Set() };
    app.addHook('onReady', async () => {
      const q = await startQueueFor(app);
      pipeline.queue = q;
      const consumers = factories.map((make) => make(app));
      const workerIds: string[] = [];
      for (const consumer of consumers) workerIds.push(await startWorker(app, q, pipeline, consumer));
      if (app.database.engine === 'pglite') await startVacuum(app, q, pipeline);
      startRelay(app, q, pipeline, consumers, workerIds);
    });
    app.addHook('onClose', () => stopPipeline(app, pipeline));
  };
}
