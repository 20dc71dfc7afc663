import { randomBytes } from 'node:crypto';
import { type Config, privateWebhookTargetsAllowed, webhookTargetsHttpsOnly } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../http/errors.ts';
import { appliedPageSize, paginationOf } from '../../resources/index.ts';
import { changedFields, recordAudit, removedFields } from '../audit/audit.ts';
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
import { okList } from '../../http/envelope.ts';

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
  return { httpsOnly: webhookTargetsHttpsOnly(config), allowPrivate: privateWebhookTargetsAllowed(config) };
}

// Not the resource list path: webhooks never answer their secret, and a delivery answers its attempts (deliveryJson), not one table's fields.
function page(query: { page?: number; limit?: number }) {
  const perPage = appliedPageSize(query.limit ?? 0, 'backend', 0);
  const pageNumber = query.page ?? 1;
  return { perPage, pageNumber, offset: (pageNumber - 1) * perPage };
}

/** What the audit log keeps of a webhook: never its secret, only the fact it changed. */
function audited(row: WebhookRow) {
  return { url: row.url, events: row.events, active: row.active, description: row.description };
}

const SECRET_CHANGED = { secret: { before: null, after: 'changed' } };

async function existing(db: Db, id: number): Promise<WebhookRow> {
  const row = await findWebhook(db, id);
  if (!row) throw new AppError('NOT_FOUND', `no webhook ${id}`);
  return row;
}

export async function createWebhook({ db, config }: Deps, actor: string, body: WebhookCreate) {
  assertTargetUrl(body.url, targetPolicy(config));
  const row = await db.transaction(async (tx) => {
    const created = await insertWebhook(tx, {
      url: body.url,
      events: body.events,
      active: body.active ?? true,
      description: body.description ?? '',
      secret: newSecret(),
    });
    const changes = { ...changedFields(null, audited(created)), ...SECRET_CHANGED };
    await recordAudit(tx, { actor, action: 'create', entity: 'webhook', entityId: created.id, changes });
    return created;
  });
  return { ...webhookJson(row), secret: row.secret };
}

export async function listWebhooks({ db }: Deps, query: { page?: number; limit?: number }) {
  const { perPage, pageNumber, offset } = page(query);
  const { rows, total } = await pageWebhooks(db, perPage, offset);
  return okList(rows.map(webhookJson), paginationOf(pageNumber, perPage, total));
}

export async function getWebhook({ db }: Deps, id: number) {
  return webhookJson(await existing(db, id));
}

export async function changeWebhook({ db, config }: Deps, actor: string, id: number, body: WebhookUpdate) {
  if (body.url !== undefined) assertTargetUrl(body.url, targetPolicy(config));
  const row = await db.transaction(async (tx) => {
    const before = await findWebhook(tx, id, true);
    const updated = before && (await updateWebhook(tx, id, body));
    if (!before || !updated) throw new AppError('NOT_FOUND', `no webhook ${id}`);
    const changes = changedFields(audited(before), audited(updated));
    await recordAudit(tx, { actor, action: 'update', entity: 'webhook', entityId: id, changes });
    return updated;
  });
  return webhookJson(row);
}

export async function removeWebhook({ db }: Deps, actor: string, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    const before = await findWebhook(tx, id, true);
    if (!before || !(await deleteWebhook(tx, id))) throw new AppError('NOT_FOUND', `no webhook ${id}`);
    const changes = removedFields(audited(before));
    await recordAudit(tx, { actor, action: 'delete', entity: 'webhook', entityId: id, changes });
  });
}

/** A new secret at once; deliveries already signed with the old one are not re-signed. */
export async function rotateWebhookSecret({ db }: Deps, actor: string, id: number) {
  const row = await db.transaction(async (tx) => {
    const updated = await updateWebhook(tx, id, { secret: newSecret() });
    if (!updated) throw new AppError('NOT_FOUND', `no webhook ${id}`);
    const action = 'rotate-secret';
    await recordAudit(tx, { actor, action, entity: 'webhook', entityId: id, changes: SECRET_CHANGED });
    return updated;
  });
  return { ...webhookJson(row), secret: row.secret };
}

export async function listDeliveries({ db }: Deps, id: number, query: { page?: number; limit?: number }) {
  await existing(db, id);
  const { perPage, pageNumber, offset } = page(query);
  // One snapshot: an attempt ends by writing its delivery row and its history row together, and
  // read apart a page could show a delivery still sending with that attempt already in its history.
  const { rows, total, attempts } = await db.transaction(
    async (tx) => {
      const paged = await pageDeliveries(tx, id, perPage, offset);
      return { ...paged, attempts: await attemptsOf(tx, paged.rows.map((row) => row.id)) };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
  return okList(
    rows.map((row) =>
      deliveryJson(
        row,
        attempts.filter((attempt) => attempt.deliveryId === row.id),
      ),
    ),
    paginationOf(pageNumber, perPage, total),
  );
}

export async function retryDelivery({ db }: Deps, actor: string, id: number, deliveryId: number) {
  const row = await db.transaction(async (tx) => {
    const before = await findDelivery(tx, id, deliveryId);
    const due = before && (await makeDeliveryDue(tx, id, deliveryId));
    if (!before || !due) return undefined;
    await recordAudit(tx, {
      actor,
      action: 'retry',
      entity: 'webhook_delivery',
      entityId: deliveryId,
      // Kept even when the delivery was already pending: the admin's retry is the act to record.
      changes: { status: { before: before.status, after: due.status } },
    });
    return due;
  });
  if (row) return deliveryJson(row, await attemptsOf(db, [row.id]));
  if (!(await findDelivery(db, id, deliveryId)))
    throw new AppError('NOT_FOUND', `no delivery ${deliveryId} of webhook ${id}`);
  throw new AppError('CONFLICT', 'this delivery is being sent right now');
}
