import type { Static } from '@sinclair/typebox';
import type { Pagination } from '../http/envelope.ts';
import { AppError } from '../http/errors.ts';
import { mergeSettings, readSettings } from '../modules/settings/settings.service.ts';
import { cachedTotal, countKey, rememberTotal, versionName } from './count-cache.ts';
import { type ListQuery, parseListQuery, parseWith, type WithTree } from './list-query.ts';
import { appliedPageSize, paginationOf } from './pagination.ts';
import { embedRelations, relationKeyFields } from './relations.ts';
import { countRows, type PageRequest, type Row, selectRows } from './repo.ts';
import { toJsonRows } from './rows.ts';
import { orderFor, paramValues, selectionFor, shapeKey, whereFor } from './sql.ts';
import { readStateRows } from './state.repo.ts';
import { type ReadContext, type RequestContext, type Resource, scopeOf } from './types.ts';

// The read use cases of every resource: list (page + exact total), item (first match) and
// show (by id). Per list request: one small query for the settings and the table version, the
// page query, and the count only when no cached total of the same version exists.

export interface ListResult {
  success: true;
  data: Row[];
  pagination: Static<typeof Pagination>;
}

export interface OneResult {
  success: true;
  data: Row;
}

type PageQuery = Pick<ListQuery, 'filters' | 'search' | 'sort' | 'with'>;

function baseContext(rctx: RequestContext): ReadContext {
  return { ...rctx, scope: scopeOf(rctx.caller), settings: null };
}

/** Settings are read when the resource shows a switched field. */
async function withSettings(ctx: ReadContext, resource: Resource): Promise<ReadContext> {
  const needed = resource.def.usesSettings === true;
  return needed ? { ...ctx, settings: await readSettings(ctx.db, ctx.config) } : ctx;
}

/** The page statement of a query: its shape, how to build it (once), and this request's values. */
function pageOf(resource: Resource, ctx: ReadContext, query: PageQuery, limit: number, offset: number): PageRequest {
  const extra = relationKeyFields(resource, query.with);
  return {
    shape: shapeKey(resource, ctx, query, extra),
    build: () => ({
      selection: selectionFor(resource, ctx, extra),
      where: whereFor(resource, ctx, query),
      order: orderFor(resource, query.sort),
    }),
    values: paramValues(ctx, query),
    limit,
    offset,
  };
}

export async function listEntities(rctx: RequestContext, resource: Resource, raw: Record<string, unknown>) {
  const base = baseContext(rctx);
  const query = parseListQuery(resource, raw, base.scope);
  const key = countKey(resource, base, query);
  const needsSettings = base.scope !== 'backend' || resource.def.usesSettings === true;
  // One round trip for the settings and the table version (when either is needed).
  const state = needsSettings || key ? await readStateRows(rctx.db) : null;
  const ctx: ReadContext = needsSettings && state ? { ...base, settings: mergeSettings(rctx.config, state.settings) } : base;
  const version = state?.versions.get(versionName(resource)) ?? '0';
  const perPage = appliedPageSize(query.limit, ctx.scope, ctx.settings?.rest_max_page_size ?? Number.MAX_SAFE_INTEGER);
  const offset = (query.page - 1) * perPage;
  const page = pageOf(resource, ctx, query, perPage, offset);
  let total = key ? cachedTotal(rctx.db, key, version) : undefined;
  let rows: Row[];
  if (total === undefined) {
    const count = {
      shape: shapeKey(resource, ctx, { ...query, sort: [] }, []),
      where: () => whereFor(resource, ctx, query),
      values: page.values,
    };
    // Count and page at once (two connections on a pool); the page may turn out past the end.
    const [counted, found] = await Promise.all([countRows(rctx.db, resource, count), selectRows(rctx.db, resource, page)]);
    if (key) rememberTotal(rctx.db, key, version, counted);
    total = counted;
    rows = found;
  } else {
    rows = offset >= total ? [] : await selectRows(rctx.db, resource, page);
  }
  toJsonRows(resource, ctx, rows);
  await embedRelations(ctx, resource, rows, query.with);
  return { success: true, data: rows, pagination: paginationOf(query.page, perPage, total) } satisfies ListResult;
}

/** The first entity matching the list's filters, search and sort; 404 when none. */
export async function itemEntity(rctx: RequestContext, resource: Resource, raw: Record<string, unknown>) {
  const base = baseContext(rctx);
  const query = parseListQuery(resource, raw, base.scope);
  const ctx = await withSettings(base, resource);
  const rows = await selectRows(rctx.db, resource, pageOf(resource, ctx, query, 1, 0));
  if (rows.length === 0) throw new AppError('NOT_FOUND', `no ${resource.def.entity} matches`);
  return finishOne(ctx, resource, rows, query.with);
}

async function finishOne(ctx: ReadContext, resource: Resource, rows: Row[], tree: WithTree): Promise<OneResult> {
  toJsonRows(resource, ctx, rows);
  await embedRelations(ctx, resource, rows, tree);
  return { success: true, data: rows[0] };
}

/** One entity by id, as far as the caller may see it: hidden and foreign rows answer 404. */
export async function showEntity(
  rctx: RequestContext,
  resource: Resource,
  id: number,
  raw: Record<string, unknown> = {},
): Promise<OneResult> {
  const ctx = await withSettings(baseContext(rctx), resource);
  const idField = resource.field.get('id')!;
  const query: PageQuery = {
    filters: [{ field: idField, op: 'eq', value: id }],
    search: null,
    sort: [],
    with: parseWith(resource, raw.with, ctx.scope),
  };
  const rows = await selectRows(rctx.db, resource, pageOf(resource, ctx, query, 1, 0));
  if (rows.length === 0) throw new AppError('NOT_FOUND', `${resource.def.entity} ${id} not found`);
  return finishOne(ctx, resource, rows, query.with);
}
