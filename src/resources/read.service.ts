import type { Static } from '@sinclair/typebox';
import { and, eq } from 'drizzle-orm';
import type { Pagination } from '../http/envelope.ts';
import { AppError } from '../http/errors.ts';
import { readSettings } from '../modules/settings/settings.service.ts';
import { parseListQuery, parseWith } from './list-query.ts';
import { appliedPageSize, paginationOf } from './pagination.ts';
import { embedRelations, relationKeyFields } from './relations.ts';
import { countRows, type Row, selectRows } from './repo.ts';
import { toJsonRows } from './rows.ts';
import { orderFor, selectionFor, visibility, whereFor } from './sql.ts';
import { type ReadContext, type RequestContext, type Resource, scopeOf } from './types.ts';

// The read use cases of every resource: list (page + exact total), item (first match) and
// show (by id). Per request: at most one settings read, the page query and the count.

export interface ListResult {
  success: true;
  data: Row[];
  pagination: Static<typeof Pagination>;
}

export interface OneResult {
  success: true;
  data: Row;
}

function baseContext(rctx: RequestContext): ReadContext {
  return { ...rctx, scope: scopeOf(rctx.caller), settings: null };
}

/** Settings are read when the storefront ceiling applies or the resource shows a switched field. */
async function withSettings(ctx: ReadContext, resource: Resource, forList: boolean): Promise<ReadContext> {
  const needed = (forList && ctx.scope !== 'backend') || resource.def.usesSettings === true;
  return needed ? { ...ctx, settings: await readSettings(ctx.db, ctx.config) } : ctx;
}

export async function listEntities(rctx: RequestContext, resource: Resource, raw: Record<string, unknown>) {
  const base = baseContext(rctx);
  const query = parseListQuery(resource, raw, base.scope);
  const where = whereFor(resource, base, query);
  // The total does not depend on the settings: both run at once on a pool.
  const [ctx, total] = await Promise.all([withSettings(base, resource, true), countRows(rctx.db, resource, where)]);
  const perPage = appliedPageSize(query.limit, ctx.scope, ctx.settings?.rest_max_page_size ?? Number.MAX_SAFE_INTEGER);
  const offset = (query.page - 1) * perPage;
  const rows =
    offset >= total
      ? []
      : await selectRows(rctx.db, resource, {
          selection: selectionFor(resource, ctx, relationKeyFields(resource, query.with)),
          where,
          order: orderFor(resource, query.sort),
          limit: perPage,
          offset,
        });
  await embedRelations(ctx, resource, rows, query.with);
  toJsonRows(resource, ctx, rows);
  return { success: true, data: rows, pagination: paginationOf(query.page, perPage, total) } satisfies ListResult;
}

/** The first entity matching the list's filters, search and sort; 404 when none. */
export async function itemEntity(rctx: RequestContext, resource: Resource, raw: Record<string, unknown>) {
  const base = baseContext(rctx);
  const query = parseListQuery(resource, raw, base.scope);
  const ctx = await withSettings(base, resource, false);
  const rows = await selectRows(rctx.db, resource, {
    selection: selectionFor(resource, ctx, relationKeyFields(resource, query.with)),
    where: whereFor(resource, ctx, query),
    order: orderFor(resource, query.sort),
    limit: 1,
    offset: 0,
  });
  if (rows.length === 0) throw new AppError('NOT_FOUND', `no ${resource.def.entity} matches`);
  return finishOne(ctx, resource, rows, raw.with);
}

async function finishOne(ctx: ReadContext, resource: Resource, rows: Row[], withText: unknown): Promise<OneResult> {
  await embedRelations(ctx, resource, rows, parseWith(resource, withText, ctx.scope));
  toJsonRows(resource, ctx, rows);
  return { success: true, data: rows[0] };
}

/** One entity by id, as far as the caller may see it: hidden and foreign rows answer 404. */
export async function showEntity(
  rctx: RequestContext,
  resource: Resource,
  id: number,
  raw: Record<string, unknown> = {},
): Promise<OneResult> {
  const ctx = await withSettings(baseContext(rctx), resource, false);
  const tree = parseWith(resource, raw.with, ctx.scope);
  const rows = await selectRows(rctx.db, resource, {
    selection: selectionFor(resource, ctx, relationKeyFields(resource, tree)),
    where: and(eq(resource.idColumn, id), ...visibility(resource, ctx)),
    order: [],
    limit: 1,
    offset: 0,
  });
  if (rows.length === 0) throw new AppError('NOT_FOUND', `${resource.def.entity} ${id} not found`);
  return finishOne(ctx, resource, rows, raw.with);
}
