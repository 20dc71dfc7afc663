import type PgBoss from 'pg-boss';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { Queue } from './queue.ts';

/** A committed event as the relay hands it to consumers. */
export interface OutboxEvent {
  id: number;
  type: string;
  payload: unknown;
}

/**
 * One way events leave the shop (webhooks, e-mail). The outbox runs the pipeline (relay, queue,
 * workers, shutdown); a consumer says what an event becomes and how one job of its queue runs.
 * Consumers are passed in by the module list, so the outbox imports none of them.
 */
export interface OutboxConsumer<Job extends object = object> {
  /** The pg-boss queue of its jobs. */
  queue: string;
  /** How long one job may run; a job active longer belongs to a dead worker and is handed out again. */
  jobBoundMs: number;
  /** Jobs fetched by one poll. */
  batchSize: number;
  /**
   * In the relay's transaction: writes what the events become (delivery rows, messages) and queues
   * their first jobs in the same transaction. Returns how many jobs it queued. A consumer whose
   * work is not an event's consequence (a clock's, a provider's own table) has none.
   */
  takeEvents?(tx: Db, events: readonly OutboxEvent[], queue: Queue): Promise<number>;
  /** After it: queues a job for every row still without one (a manual retry, a crash between steps). */
  queueWaiting(db: Db, queue: Queue): Promise<number>;
  /** Runs one batch; throwing hands the batch back to pg-boss, which runs it again. */
  run(jobs: PgBoss.JobWithMetadata<Job>[], queue: Queue): Promise<void>;
}

/** Builds a consumer from the app's configuration, database and log, when the outbox starts. */
export type OutboxConsumerFactory<Job extends object = object> = (
  app: FastifyInstance,
) => OutboxConsumer<Job>;
