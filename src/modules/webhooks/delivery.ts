import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type PgBoss from 'pg-boss';
import { Webhook } from 'standardwebhooks';
import { type Db, queryRows } from '../../db/client.ts';
import { outbox } from '../events/outbox.tables.ts';
import { jobIdOf, type Queue, retryDelayMs } from '../jobs/queue.ts';
import { guardedLookup, isPrivateAddress } from './targets.ts';
import { webhook, webhookDelivery, webhookDeliveryAttempt } from './webhooks.tables.ts';

export const DELIVERY_QUEUE = 'webhook-deliver';

export interface DeliverySettings {
  timeoutMs: number;
  allowPrivate: boolean;
  httpsOnly: boolean;
  retryBaseMs: number;
  retryMaxMs: number;
  maxAttempts: number;
}

interface ClaimedAttempt {
  url: string | null;
  secret: string;
  active: boolean;
  eventId: number | null;
  type: string;
  payload: unknown;
  createdAt: Date | string;
}

interface DeliveryJob {
  deliveryId: number;
  attempt: number;
}

/** The job of one attempt; its id makes queueing the same attempt again a no-op. */
function jobOf(deliveryId: number, attempt: number, startAfter: Date | null): PgBoss.JobInsert<DeliveryJob> {
  return {
    // The due time is part of the id: a manual retry (due now) of an attempt already scheduled for
    // later is a job of its own, and whichever runs first claims the attempt.
    id: jobIdOf(`webhook-delivery:${deliveryId}:${attempt}:${startAfter?.getTime() ?? 'now'}`),
    name: DELIVERY_QUEUE,
    data: { deliveryId, attempt },
    startAfter: startAfter ?? undefined,
    // pg-boss's own retries cover only a worker that died or a database error mid-attempt; a
    // refused or failed request is a finished attempt whose successor is queued by us.
    retryLimit: 3,
    retryDelay: 5,
    retryBackoff: true,
    // Past the 10 s request bound: a job active longer belongs to a worker that died (on
    // PostgreSQL another instance then takes it; PGlite hands it out again at start).
    expireInSeconds: 30,
  };
}

/** Queues the next attempt of each delivery, then notes that its job exists. */
export async function queueDeliveryJobs(
  db: Db,
  queue: Queue,
  deliveries: { id: number; attempts: number; nextAttemptAt: Date | null }[],
): Promise<void> {
  if (deliveries.length === 0) return;
  await queue.insert(deliveries.map((d) => jobOf(d.id, d.attempts + 1, d.nextAttemptAt)));
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

interface Outcome {
  ok: boolean;
  status: number | null;
  durationMs: number;
  error: string | null;
}

/** One signed POST; never throws (a failure is an outcome). */
async function post(
  url: string,
  secret: string,
  messageId: string,
  body: string,
  settings: DeliverySettings,
): Promise<Outcome> {
  const started = performance.now();
  const done = (ok: boolean, status: number | null, error: string | null): Outcome => ({
    ok,
    status,
    error,
    durationMs: Math.round(performance.now() - started),
  });
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return done(false, null, 'invalid url');
  }
  if (settings.httpsOnly && target.protocol !== 'https:') return done(false, null, 'https required');
  const host = target.hostname.replace(/^\[|\]$/g, '');
  // Node skips the lookup for a literal address, so the guard checks it here.
  if (!settings.allowPrivate && isIP(host) && isPrivateAddress(host)) {
    return done(false, null, 'private address refused');
  }
  const timestamp = new Date();
  const signature = new Webhook(secret).sign(messageId, timestamp, body);
  const client = target.protocol === 'https:' ? https : http;
  return new Promise<Outcome>((resolve) => {
    const request = client.request(
      target,
      {
        method: 'POST',
        lookup: guardedLookup(settings.allowPrivate),
        timeout: settings.timeoutMs,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'shop-rest-api-webhooks',
          'webhook-id': messageId,
          'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
          'webhook-signature': signature,
        },
      },
      (response) => {
        response.resume();
        response.on('end', () => {
          const status = response.statusCode ?? 0;
          resolve(done(status >= 200 && status < 300, status, null));
        });
        response.on('error', (err) => resolve(done(false, response.statusCode ?? null, err.message)));
      },
    );
    // The whole attempt, not only an idle socket, is bounded by the timeout.
    const deadline = setTimeout(() => request.destroy(new Error('timed out')), settings.timeoutMs);
    request.on('close', () => clearTimeout(deadline));
    request.on('timeout', () => request.destroy(new Error('timed out')));
    request.on('error', (err) => resolve(done(false, null, err.message)));
    request.end(body);
  });
}

/**
 * Runs one attempt. The claim (a conditional update of the delivery row) lets exactly one worker
 * send a given attempt; a job that pg-boss hands out again after its worker died finds the
 * attempt claimed but unfinished (`sending`) and sends it again: at least once.
 */
export async function runDeliveryAttempt(
  db: Db,
  queue: Queue,
  job: { data: DeliveryJob; retryCount: number },
  settings: DeliverySettings,
): Promise<void> {
  const { deliveryId, attempt } = job.data;
  const claimable =
    job.retryCount > 0
      ? sql`((status = 'pending' and attempts = ${attempt - 1}) or (status = 'sending' and attempts = ${attempt}))`
      : sql`(status = 'pending' and attempts = ${attempt - 1})`;
  // The claim and what the attempt sends, in one round trip (a webhook or event since deleted
  // comes back as nulls, and the attempt fails on it).
  const [claimed] = await queryRows<ClaimedAttempt>(
    db,
    sql`with claimed as (
          update ${webhookDelivery} set status = 'sending', attempts = ${attempt}, updated_at = now()
          where id = ${deliveryId} and ${claimable}
          returning webhook_id, event_id)
        select w.url, w.secret, w.active, e.id as "eventId", e.type, e.payload, e.created_at as "createdAt"
        from claimed
        left join ${webhook} w on w.id = claimed.webhook_id
        left join ${outbox} e on e.id = claimed.event_id`,
  );
  if (!claimed) return;
  const target = claimed.url === null ? undefined : { ...claimed, url: claimed.url };
  const event = claimed.eventId === null ? undefined : { ...claimed, id: claimed.eventId };
  let outcome: Outcome;
  if (!target || !event) outcome = { ok: false, status: null, durationMs: 0, error: 'event or webhook gone' };
  else if (!target.active) outcome = { ok: false, status: null, durationMs: 0, error: 'webhook inactive' };
  else {
    const body = JSON.stringify({
      type: event.type,
      timestamp: new Date(event.createdAt).toISOString(),
      data: event.payload,
    });
    outcome = await post(target.url, target.secret, webhookMessageId(event.id), body, settings);
  }
  const dead = !outcome.ok && attempt >= settings.maxAttempts;
  const next =
    outcome.ok || dead
      ? null
      : new Date(
          Date.now() + retryDelayMs(attempt, settings.retryBaseMs, settings.retryMaxMs, settings.maxAttempts),
        );
  // The delivery's latest state and the attempt's record, in one statement.
  await queryRows(
    db,
    sql`with finished as (
          update ${webhookDelivery}
          set status = ${outcome.ok ? 'succeeded' : dead ? 'dead' : 'pending'}, job_queued = false,
              next_attempt_at = ${next}, last_response_code = ${outcome.status},
              last_duration_ms = ${outcome.durationMs}, last_error = ${outcome.error}, updated_at = now()
          where id = ${deliveryId}
          returning id)
        insert into ${webhookDeliveryAttempt}
          (delivery_id, attempt, succeeded, response_code, duration_ms, error)
        select id, ${attempt}::int, ${outcome.ok}::boolean, ${outcome.status}::int, ${outcome.durationMs}::int,
               ${outcome.error}::text
        from finished`,
  );
  if (next) await queueDeliveryJobs(db, queue, [{ id: deliveryId, attempts: attempt, nextAttemptAt: next }]);
}

/** The Standard Webhooks message id of an event: the same for every attempt and every webhook. */
export function webhookMessageId(eventId: number): string {
  return `evt_${eventId}`;
}
