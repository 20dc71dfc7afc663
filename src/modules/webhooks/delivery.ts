import type PgBoss from 'pg-boss';
import type { Db } from '../../db/client.ts';
import { keyedJob, type Queue, retryDelayMs } from '../outbox/queue.ts';
import { type Outcome, type PostSettings, post } from './post.ts';
import {
  type ClaimedAttempt,
  claimDeliveryAttempts,
  type DeliveryOutcome,
  markDeliveriesQueued,
  recordDeliveryOutcomes,
} from './webhooks.repo.ts';

export const DELIVERY_QUEUE = 'webhook-deliver';

export interface DeliverySettings extends PostSettings {
  retryBaseMs: number;
  retryMaxMs: number;
  maxAttempts: number;
}

/** One attempt of one delivery. */
interface AttemptRef {
  deliveryId: number;
  attempt: number;
}

/**
 * A job's data: the attempts it runs. Attempts due now go in jobs of up to ATTEMPTS_PER_JOB, so the
 * queue writes, hands out and completes one job row for many deliveries; an attempt due later has a
 * job of its own. (`deliveryId`/`attempt` alone: a job queued by an earlier version.)
 */
export type DeliveryJob = { attempts: AttemptRef[] } | AttemptRef;

const ATTEMPTS_PER_JOB = 50;

function attemptsOf(job: DeliveryJob): AttemptRef[] {
  return 'attempts' in job ? job.attempts : [job];
}

/** The job of some attempts, due at `startAfter` (null: now). */
function jobOf(attempts: AttemptRef[], startAfter: Date | null): PgBoss.JobInsert<DeliveryJob> {
  // The attempts and the due time make the id: queueing the same attempts again (a relay that
  // ran again after a crash) inserts nothing, and a manual retry (due now) of an attempt already
  // scheduled for later is a job of its own; whichever runs first claims the attempt.
  const ids = attempts.map((a) => `${a.deliveryId}:${a.attempt}`).join(',');
  const key = `webhook-delivery:${ids}:${startAfter?.getTime() ?? 'now'}`;
  return keyedJob<DeliveryJob>(DELIVERY_QUEUE, key, { attempts }, { startAfter });
}

/** The jobs of the next attempt of each delivery: the ones due now together, the others one each. */
export function deliveryJobs(
  deliveries: readonly { id: number; attempts: number; nextAttemptAt: Date | null }[],
): PgBoss.JobInsert<DeliveryJob>[] {
  const jobs: PgBoss.JobInsert<DeliveryJob>[] = [];
  const dueNow: AttemptRef[] = [];
  for (const d of deliveries) {
    const attempt = { deliveryId: d.id, attempt: d.attempts + 1 };
    if (d.nextAttemptAt === null) dueNow.push(attempt);
    else jobs.push(jobOf([attempt], d.nextAttemptAt));
  }
  for (let i = 0; i < dueNow.length; i += ATTEMPTS_PER_JOB) {
    jobs.push(jobOf(dueNow.slice(i, i + ATTEMPTS_PER_JOB), null));
  }
  return jobs;
}

/** Queues the next attempt of each delivery, then notes that its job exists. */
export async function queueDeliveryJobs(
  db: Db,
  queue: Queue,
  deliveries: { id: number; attempts: number; nextAttemptAt: Date | null }[],
): Promise<void> {
  if (deliveries.length === 0) return;
  await queue.insert(deliveryJobs(deliveries));
  await markDeliveriesQueued(
    db,
    deliveries.map((d) => d.id),
  );
}

/**
 * Runs the attempts of a batch of jobs in three steps, each one statement for the whole batch:
 * claim them, send them (side by side), record their outcomes. The claim (a conditional update of
 * each delivery row) lets exactly one worker send a given attempt; a job that pg-boss hands out
 * again after its worker died finds the attempt claimed but unfinished (`sending`) and sends it
 * again: at least once. A statement that fails fails the batch, and pg-boss retries its jobs.
 */
export async function runDeliveryAttempts(
  db: Db,
  queue: Queue,
  jobs: readonly { data: DeliveryJob; retryCount: number }[],
  settings: DeliverySettings,
): Promise<void> {
  const claimed = await claimAttempts(db, jobs);
  const outcomes = await Promise.all(claimed.map((attempt) => send(attempt, settings)));
  const finished = claimed.map((c, i) => finishedAttempt(c, outcomes[i], settings));
  await recordDeliveryOutcomes(db, finished);
  const retries = finished.filter((f) => f.nextAttemptAt !== null);
  await queueDeliveryJobs(
    db,
    queue,
    retries.map((f) => ({ id: f.deliveryId, attempts: f.attempt, nextAttemptAt: f.nextAttemptAt })),
  );
}

/** Claims the batch's attempts and reads what each sends. */
async function claimAttempts(
  db: Db,
  jobs: readonly { data: DeliveryJob; retryCount: number }[],
): Promise<ClaimedAttempt[]> {
  const wanted = jobs.flatMap((j) =>
    attemptsOf(j.data).map((a) => ({ id: a.deliveryId, attempt: a.attempt, retried: j.retryCount > 0 })),
  );
  return claimDeliveryAttempts(db, wanted);
}

/** Sends one claimed attempt; never throws (a failure is an outcome). */
async function send(claimed: ClaimedAttempt, settings: DeliverySettings): Promise<Outcome> {
  if (claimed.url === null || claimed.eventId === null) {
    return { ok: false, status: null, durationMs: 0, error: 'event or webhook gone' };
  }
  if (!claimed.active) return { ok: false, status: null, durationMs: 0, error: 'webhook inactive' };
  const body = JSON.stringify({
    type: claimed.type,
    timestamp: new Date(claimed.createdAt).toISOString(),
    data: claimed.payload,
  });
  return post(claimed.url, claimed.secret, webhookMessageId(claimed.eventId), body, settings);
}

/** The delivery's state after an attempt: done, dead after the last attempt, or due again later. */
function finishedAttempt(
  claimed: ClaimedAttempt,
  outcome: Outcome,
  settings: DeliverySettings,
): DeliveryOutcome {
  const { deliveryId, attempt } = claimed;
  const dead = !outcome.ok && attempt >= settings.maxAttempts;
  const nextAttemptAt =
    outcome.ok || dead
      ? null
      : new Date(
          Date.now() + retryDelayMs(attempt, settings.retryBaseMs, settings.retryMaxMs, settings.maxAttempts),
        );
  const deliveryStatus = outcome.ok ? 'succeeded' : dead ? 'dead' : 'pending';
  return { ...outcome, deliveryId, attempt, deliveryStatus, nextAttemptAt };
}

/** The Standard Webhooks message id of an event: the same for every attempt and every webhook. */
export function webhookMessageId(eventId: number): string {
  return `evt_${eventId}`;
}
