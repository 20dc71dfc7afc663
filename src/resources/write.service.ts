import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import type { Caller } from '../http/access.ts';
import { AppError, type ErrorDetail } from '../http/errors.ts';
import { mapDbError } from './db-errors.ts';
import { FieldError } from './fields.ts';
import { type OneResult, showEntity } from './read.service.ts';
import { deleteRow, insertRow, type Row, selectAudited, selectAuditedMany, updateRow } from './repo.ts';
import { visibility } from './sql.ts';
import { checkTranslations, translationsSql } from './translations.ts';
import type {
  FieldInfo,
  Operation,
  RequestContext,
  Resource,
  Settings,
  Values,
  WriteContext,
  WriteRequestContext,
} from './types.ts';
import { okOnly } from '../http/envelope.ts';

// Back-office (and customer-own) writes: a body naming a field the caller may not write is 400
// "… is read-only" before the schema runs (`refuseReadOnly`), unknown fields are 400 by the
// schema; here values are converted (decimals → cents), the owner is taken from the token, hooks
// derive defaults and record history in the same transaction. An admin's write is kept in the
// audit log here, for every resource, in the write's transaction (docs/security.md, "Audit log").

function invalid(details: ErrorDetail[]): AppError {
  return new AppError('VALIDATION_FAILED', details.map((d) => `${d.field} ${d.message}`).join('; '), details);
}

/** True when this caller may write the field in this operation. */
function mayWrite(caller: Caller, resource: Resource, f: FieldInfo, op: 'create' | 'update'): boolean {
  if (!(op === 'create' ? f.create !== undefined : f.update)) return false;
  // A customer's own rows: admin-only fields and the owner (it comes from the token) are not theirs to set.
  return caller.kind !== 'customer' || (f.writeScope !== 'backend' && f !== resource.ownerField);
}

/** The fields of the entity a body names that this caller may not write (ids, timestamps, balances…). */
export function readOnlyFields(
  caller: Caller,
  resource: Resource,
  body: Values,
  op: 'create' | 'update',
): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const name of Object.keys(body)) {
    const f = resource.field.get(name);
    if (f && !mayWrite(caller, resource, f, op)) details.push({ field: name, message: 'is read-only' });
  }
  return details;
}

/** Refuses a body naming a read-only field with a message that says so (the schema would only say "unknown"). */
export function refuseReadOnly(caller: Caller, resource: Resource, body: unknown, op: 'create' | 'update') {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return;
  const details = readOnlyFields(caller, resource, body as Values, op);
  if (details.length) throw invalid(details);
}

/** Converts a validated body to stored values; customers may not write admin-only fields or the owner. */
function storedValues(
  rctx: RequestContext,
  resource: Resource,
  body: Values,
  op: 'create' | 'update',
): Values {
  const values: Values = {};
  const details = readOnlyFields(rctx.caller, resource, body, op);
  const extras = op === 'create' ? resource.def.createExtras?.() : undefined;
  for (const [name, value] of Object.entries(body)) {
    if (extras && name in extras) {
      values[name] = value;
      continue;
    }
    const f = resource.field.get(name);
    if (!f) details.push({ field: name, message: 'is not a field of this entity' });
    if (!f || !mayWrite(rctx.caller, resource, f, op)) continue;
    try {
      values[name] = f.codec.toDb ? f.codec.toDb(value) : value;
    } catch (err) {
      if (!(err instanceof FieldError)) throw err;
      details.push({ field: name, message: err.message });
    }
  }
  if (details.length) throw invalid(details);
  return values;
}

function columnValues(resource: Resource, values: Values, op: 'create' | 'update'): Row {
  const row: Row = {};
  for (const [name, value] of Object.entries(values)) {
    const f = resource.field.get(name);
    if (!f?.columnKey || value === undefined) continue;
    // Translations merge into what the row holds (translations.ts).
    row[f.columnKey] =
      f.column === resource.def.translations
        ? translationsSql(resource, value as Record<string, Record<string, unknown>>, op)
        : value;
  }
  return row;
}

function writeContext(rctx: WriteRequestContext, tx: Db): WriteContext {
  let settings: Promise<Settings> | undefined;
  return { ...rctx, db: tx, settings: () => (settings ??= rctx.settingsSource.read(tx)) };
}

async function inTransaction<T>(
  rctx: WriteRequestContext,
  resource: Resource,
  op: 'create' | 'update' | 'delete',
  work: (ctx: WriteContext) => Promise<T>,
): Promise<T> {
  try {
    return await rctx.db.transaction((tx) => work(writeContext(rctx, tx)));
  } catch (err) {
    const mapped = mapDbError(err, resource, op);
    // A customer's own rows reference the customer: a missing one means the token outlived its account.
    const owner = resource.ownerField?.name;
    if (
      rctx.caller.kind === 'customer' &&
      mapped instanceof AppError &&
      mapped.details?.[0]?.field === owner
    ) {
      throw new AppError('UNAUTHENTICATED', 'the account of this token no longer exists');
    }
    throw mapped;
  }
}

/**
 * The fields an audit entry compares: those the update writes (the body's, and what the hooks
 * derived), every writable one of a create, every stored one of a delete.
 */
function auditedFields(resource: Resource, op: Operation, values: Values): FieldInfo[] {
  return resource.fields.filter((f) => {
    if (!f.column) return false;
    if (op === 'update') return Object.hasOwn(values, f.name);
    return op === 'delete' || f.create !== undefined || f.update || Object.hasOwn(values, f.name);
  });
}

/**
 * Audits an admin's write (a customer's own rows are not back-office writes): reads the fields
 * before it (locking the row) and returns what records the entry after it.
 */
async function auditStart(
  ctx: WriteContext,
  resource: Resource,
  op: Operation,
  id: number | null,
  values: Values,
) {
  const { caller } = ctx;
  if (caller.kind !== 'admin') return async () => {};
  const fields = auditedFields(resource, op, values);
  const lock = op === 'delete' ? 'update' : 'no key update';
  const before = id === null ? null : await selectAudited(ctx.db, resource, id, fields, lock);
  return async (writtenId: number) => {
    const after = op === 'delete' ? null : await selectAudited(ctx.db, resource, writtenId, fields, null);
    await ctx.recordWrite(ctx.db, {
      actor: caller.sub,
      action: op,
      entity: resource.def.entity,
      entityId: writtenId,
      before,
      after,
    });
  };
}

function ownerConditions(rctx: RequestContext, resource: Resource) {
  return rctx.caller.kind === 'customer' ? visibility(resource, { ...rctx, scope: 'customer', translateTo: null, servedLocales: null }, true) : [];
}

export async function createEntity(
  rctx: WriteRequestContext,
  resource: Resource,
  body: Values,
): Promise<OneResult> {
  const values = storedValues(rctx, resource, body, 'create');
  const owner = resource.ownerField;
  if (owner && rctx.caller.kind === 'customer') values[owner.name] = rctx.caller.customerId;
  else if (owner && values[owner.name] === undefined) {
    throw invalid([{ field: owner.name, message: 'is required' }]);
  }
  const id = await inTransaction(rctx, resource, 'create', async (ctx) => {
    await resource.def.hooks?.beforeWrite?.(ctx, values, 'create');
    await checkTranslations(ctx, resource, values);
    const audit = await auditStart(ctx, resource, 'create', null, values);
    const newId = await insertRow(ctx.db, resource, columnValues(resource, values, 'create'));
    await resource.def.hooks?.afterWrite?.(ctx, newId, values, 'create');
    await audit(newId);
    return newId;
  });
  return showEntity(rctx, resource, id);
}

/**
 * A create body's stored values, as createEntity converts them (the same 400s), for a feature that
 * writes a batch of creates in one statement with its hooks' work as set operations (the catalog's
 * import); createColumns then gives the row to insert.
 */
export function createValues(rctx: RequestContext, resource: Resource, body: Values): Values {
  return storedValues(rctx, resource, body, 'create');
}

/** The row createEntity would insert for these values (translations as SQL). */
export function createColumns(resource: Resource, values: Values): Row {
  return columnValues(resource, values, 'create');
}

/** The audit entries of a batch's creates (createRow's values by the new ids): one read, one insert. */
export async function auditCreates(
  rctx: WriteRequestContext,
  resource: Resource,
  created: readonly { id: number; values: Values }[],
): Promise<void> {
  const { caller } = rctx;
  if (caller.kind !== 'admin' || created.length === 0) return;
  const fieldsOf = created.map((c) => auditedFields(resource, 'create', c.values));
  const all = [...new Set(fieldsOf.flat())];
  const after = await selectAuditedMany(rctx.db, resource, created.map((c) => c.id), all);
  await rctx.recordWrite(
    rctx.db,
    created.map((c, i) => {
      const row = after.get(c.id) ?? {};
      return {
        actor: caller.sub,
        action: 'create' as const,
        entity: resource.def.entity,
        entityId: c.id,
        before: null,
        after: Object.fromEntries(fieldsOf[i].map((f) => [f.name, row[f.name]])),
      };
    }),
  );
}

export async function updateEntity(
  rctx: WriteRequestContext,
  resource: Resource,
  id: number,
  body: Values,
): Promise<OneResult> {
  const values = storedValues(rctx, resource, body, 'update');
  await inTransaction(rctx, resource, 'update', async (ctx) => {
    await resource.def.hooks?.beforeWrite?.(ctx, values, 'update', id);
    await checkTranslations(ctx, resource, values, id);
    const audit = await auditStart(ctx, resource, 'update', id, values);
    const row = columnValues(resource, values, 'update');
    const updatedAt = resource.field.get('updatedAt');
    if (updatedAt?.columnKey) row[updatedAt.columnKey] = sql`now()`;
    const found = await updateRow(ctx.db, resource, id, row, ownerConditions(rctx, resource));
    if (!found) throw new AppError('NOT_FOUND', `${resource.def.entity} ${id} not found`);
    await resource.def.hooks?.afterWrite?.(ctx, id, values, 'update');
    await audit(id);
  });
  return showEntity(rctx, resource, id);
}

export async function deleteEntity(
  rctx: WriteRequestContext,
  resource: Resource,
  id: number,
): Promise<{ success: true }> {
  await inTransaction(rctx, resource, 'delete', async (ctx) => {
    const audit = await auditStart(ctx, resource, 'delete', id, {});
    const found = await deleteRow(ctx.db, resource, id, ownerConditions(rctx, resource));
    if (!found) throw new AppError('NOT_FOUND', `${resource.def.entity} ${id} not found`);
    await audit(id);
  });
  return okOnly();
}
