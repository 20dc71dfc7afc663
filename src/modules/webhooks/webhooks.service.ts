import { randomBytes } from 'node:crypto';
import { type Config, privateWebhookTargetsAllowed } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../http/errors.ts';
import { appliedPageSize, paginationOf } from '../../resources/pagination.ts';
import { assertTargetUrl } from './targets.ts';
import type { WebhookCreate, WebhookUpdate } from './webhooks.schemas.ts';
import {
  type AttemptRow,
  attemptsOf,
  type DeliveryRow,
  deleteWebhook,
  findDelivery,
  findWebhook,
  insertWebhook,
  makeDeliveryDue,
  pageDeliveries,
  pageWebhooks,
  updateWebhook,
  type WebhookRow,
} from './webhooks.repo.ts';

interface Deps {
  db: Db;
  config: Config;
}

/** A Standard Webhooks signing secret: 32 random bytes (the minimum asked of integrators is 24). */
function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

function webhookJson(row: WebhookRow) {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    active: row.active,
    description: row.description,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function attemptJson(row: AttemptRow) {
  return {
    attempt: row.attempt,
    succeeded: row.succeeded,
    responseCode: row.responseCode,
    durationMs: row.durationMs,
    error: row.error,
    endedAt: row.endedAt.toISOString(),
  };
}

function deliveryJson(row: DeliveryRow, history: AttemptRow[] = []) {
  return {
    id: row.id,
    webhookId: row.webhookId,
    eventId: row.eventId,
    eventType: row.eventType,
    status: row.status,
    attempts: row.attempts,
    responseCode: row.lastResponseCode,
    durationMs: row.lastDurationMs,
    error: row.lastError,
    nextAttemptAt: row.nextAttemptAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    history: history.map(attemptJson),
  };
}

function targetPolicy(config: Config) {
  return { httpsOnly: config.nodeEnv === 'production', allowPrivate: privateWebhookTargetsAllowed(config) };
}

function page(query: { page?: number; limit?: number }) {
  const perPage = appliedPageSize(query.limit ?? 0, 'backend', 0);
  const pageNumber = query.page ?? 1;
  return { perPage, pageNumber, offset: (pageNumber - 1) * perPage };
}

async function existing(db: Db, id: number): Promise<WebhookRow> {
  const row = await findWebhook(db, id);
  if (!row) throw new AppError('NOT_FOUND', `no webhook ${id}`);
  return row;
}

export async function createWebhook({ db, config }: Deps, body: WebhookCreate) {
  assertTargetUrl(body.url, targetPolicy(config));
  const row = await insertWebhook(db, {
    url: body.url,
    events: body.events,
    active: body.active ?? true,
    description: body.description ?? '',
    secret: newSecret(),
  });
  return { ...webhookJson(row), secret: row.secret };
}

export async function listWebhooks({ db }: Deps, query: { page?: number; limit?: number }) {
  const { perPage, pageNumber, offset } = page(query);
  const { rows, total } = await pageWebhooks(db, perPage, offset);
  return {
    success: true as const,
    data: rows.map(webhookJson),
    pagination: paginationOf(pageNumber, perPage, total),
  };
}

export async function getWebhook({ db }: Deps, id: number) {
  return webhookJson(await existing(db, id));
}

export async function changeWebhook({ db, config }: Deps, id: number, body: WebhookUpdate) {
  if (body.url !== undefined) assertTargetUrl(body.url, targetPolicy(config));
  const row = await updateWebhook(db, id, body);
  if (!row) throw new AppError('NOT_FOUND', `no webhook ${id}`);
  return webhookJson(row);
}

export async function removeWebhook({ db }: Deps, id: number): Promise<void> {
  if (!(await deleteWebhook(db, id))) throw new AppError('NOT_FOUND', `no webhook ${id}`);
}

/** A new secret at once; deliveries already signed with the old one are not re-signed. */
export async function rotateWebhookSecret({ db }: Deps, id: number) {
  const row = await updateWebhook(db, id, { secret: newSecret() });
  if (!row) throw new AppError('NOT_FOUND', `no webhook ${id}`);
  return { ...webhookJson(row), secret: row.secret };
}

export async function listDeliveries({ db }: Deps, id: number, query: { page?: number; limit?: number }) {
  await existing(db, id);
  const { perPage, pageNumber, offset } = page(query);
  const { rows, total } = await pageDeliveries(db, id, perPage, offset);
  const attempts = await attemptsOf(
    db,
    rows.map((row) => row.id),
  );
  return {
    success: true as const,
    data: rows.map((row) =>
      deliveryJson(
        row,
        attempts.filter((attempt) => attempt.deliveryId === row.id),
      ),
    ),
    pagination: paginationOf(pageNumber, perPage, total),
  };
}

export async function retryDelivery({ db }: Deps, id: number, deliveryId: number) {
  const row = await makeDeliveryDue(db, id, deliveryId);
  if (row) return deliveryJson(row, await attemptsOf(db, [row.id]));
  if (!(await findDelivery(db, id, deliveryId)))
    throw new AppError('NOT_FOUND', `no delivery ${deliveryId} of webhook ${id}`);
  throw new AppError('CONFLICT', 'this delivery is being sent right now');
}
