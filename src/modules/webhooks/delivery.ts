import { and, eq, inArray, sql } from 'drizzle-orm';
import type PgBoss from 'pg-boss';
import { type Db, queryRows } from '../../db/client.ts';
import { outbox } from '../outbox/outbox.tables.ts';
import { jobIdOf, type Queue, retryDelayMs } from '../outbox/queue.ts';
import { type Outcome, type PostSettings, post } from './post.ts';
import { webhook, webhookDelivery, webhookDeliveryAttempt } from './webhooks.tables.ts';

export const DELIVERY_QUEUE = 'webhook-deliver';

export interface DeliverySettings extends PostSettings {
  retryBaseMs: number;
  retryMaxMs: number;
  maxAttempts: number;
}

/** A claimed attempt and what it sends (a webhook or event since deleted comes back as nulls). */
interface ClaimedAttempt {
  deliveryId: number;
  attempt: number;
  url: string | null;
  secret: string;
  active: boolean;
  eventId: number | null;
  type: string;
  payload: unknown;
  createdAt: Date | string;
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
  return {
    // The attempts and the due time make the id: queueing the same attempts again (a relay that
    // ran again after a crash) inserts nothing, and a manual retry (due now) of an attempt already
    // scheduled for later is a job of its own; whichever runs first claims the attempt.
    id: jobIdOf(
      `webhook-delivery:${attempts.map((a) => `${a.deliveryId}:${a.attempt}`).join(',')}:${startAfter?.getTime() ?? 'now'}`,
    ),
    name: DELIVERY_QUEUE,
    data: { attempts },
    startAfter: startAfter ?? undefined,
    // pg-boss's own retries cover only a worker that died or a database error mid-attempt; a
    // refused or failed request is a finished attempt whose successor is queued by us. The
    // expiry is the queue's (src/modules/outbox/index.ts): the request bound and a margin.
    retryLimit: 3,
    retryDelay: 1,
    retryBackoff: true,
  };
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
  await db
    .update(webhookDelivery)
    .set({ jobQueued: true })
    .where(
      and(
        inArray(
          webhookDelivery.id,
          deliveries.map((d) => d.id),
        ),
        eq(webhookDelivery.status, 'pending'),
      ),
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
  await recordOutcomes(db, finished);
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
  if (wanted.length === 0) return [];
  return queryRows<ClaimedAttempt>(
    db,
    sql`with wanted as (
          select * from jsonb_to_recordset(${JSON.stringify(wanted)}::jsonb) as w(id int, attempt int, retried boolean)),
        claimed as (
          update ${webhookDelivery} d set status = 'sending', attempts = w.attempt, updated_at = now()
          from wanted w
          where d.id = w.id and ((d.status = 'pending' and d.attempts = w.attempt - 1)
            or (w.retried and d.status = 'sending' and d.attempts = w.attempt))
          returning d.id, d.webhook_id, d.event_id, w.attempt)
        select claimed.id as "deliveryId", claimed.attempt, w.url, w.secret, w.active, e.id as "eventId", e.type,
          e.payload, e.created_at as "createdAt"
        from claimed
        left join ${webhook} w on w.id = claimed.webhook_id
        left join ${outbox} e on e.id = claimed.event_id`,
  );
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

interface FinishedAttempt extends Outcome {
  deliveryId: number;
  attempt: number;
  deliveryStatus: 'succeeded' | 'dead' | 'pending';
  nextAttemptAt: Date | null;
}

/** The delivery's state after an attempt: done, dead after the last attempt, or due again later. */
function finishedAttempt(
  claimed: ClaimedAttempt,
  outcome: Outcome,
  settings: DeliverySettings,
): FinishedAttempt {
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

/** Each delivery's latest state and each attempt's record, in one statement for the batch. */
async function recordOutcomes(db: Db, finished: readonly FinishedAttempt[]): Promise<void> {
  if (finished.length === 0) return;
  const rows = finished.map((f) => ({
    id: f.deliveryId,
    attempt: f.attempt,
    status: f.deliveryStatus,
    next_at: f.nextAttemptAt?.toISOString() ?? null,
    code: f.status,
    ok: f.ok,
    ms: f.durationMs,
    error: f.error,
  }));
  await queryRows(
    db,
    sql`with outcome as (
          select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
            as o(id int, attempt int, status text, next_at timestamptz, code int, ok boolean, ms int, error text)),
        finished as (
          update ${webhookDelivery} d
          set status = o.status, job_queued = false, next_attempt_at = o.next_at, last_response_code = o.code,
              last_duration_ms = o.ms, last_error = o.error, updated_at = now()
          from outcome o
          where d.id = o.id
          returning d.id)
        insert into ${webhookDeliveryAttempt} (delivery_id, attempt, succeeded, response_code, duration_ms, error)
        select o.id, o.attempt, o.ok, o.code, o.ms, o.error
        from outcome o join finished f on f.id = o.id`,
  );
}

/** The Standard Webhooks message id of an event: the same for every attempt and every webhook. */
export function webhookMessageId(eventId: number): string {
  return `evt_${eventId}`;
}
