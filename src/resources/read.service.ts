import type { Static } from '@sinclair/typebox';
import { type SQL, sql } from 'drizzle-orm';
import { type Pagination, ok, okList } from '../http/envelope.ts';
import { AppError } from '../http/errors.ts';
import {
  cachedRankedPage,
  cachedTotal,
  countKey,
  type RankedPage,
  rankedPageKey,
  rememberRankedPage,
  rememberTotal,
  versionOf,
} from './count-cache.ts';
import { type ListQuery, parseListQuery, parseWith, type WithTree } from './list-query.ts';
import { appliedPageSize, DEFAULT_PAGE_SIZE, paginationOf } from './pagination.ts';
import {
  embeddableInSql,
  embedRelations,
  jsonSelectionWithRelations,
  relationKeyFields,
  relationsShape,
} from './relations.ts';
import { countRows, type PageRequest, type Row, selectPageWithState, selectRows } from './repo.ts';
import { toJsonRows } from './rows.ts';
import {
  jsonSelectionFor,
  orderFor,
  paramValues,
  rankFor,
  searchOnce,
  selectionFor,
  shapeKey,
  whereFor,
} from './sql.ts';
import { fieldOf, type ReadContext, type RequestContext, type Resource, scopeOf } from './types.ts';

// The read use cases of every resource: list (page + exact total), item (first match) and
// show (by id). Per storefront list request: one statement for the applied page size, the table
// versions and the page, and the count only when no cached total of the same version exists
// (docs/resources.md, "What a list request costs").

export interface ListResult {
  success: true;
  data: Row[];
  pagination: Static<typeof Pagination>;
}

export interface OneResult {
  success: true;
  data: Row;
}

type PageQuery = Pick<ListQuery, 'filters' | 'search' | 'sort' | 'with'> & { relevance?: boolean };

function baseContext(rctx: RequestContext): ReadContext {
  return { ...rctx, scope: scopeOf(rctx.caller), settings: null };
}

/** Settings are read when the resource shows a switched field. */
async function withSettings(ctx: ReadContext, resource: Resource): Promise<ReadContext> {
  const needed = resource.def.usesSettings === true;
  return needed ? { ...ctx, settings: await ctx.settingsSource.read(ctx.db) } : ctx;
}

/** The page statement of a query: its shape, how to build it (once), and this request's values. */
function pageOf(
  resource: Resource,
  ctx: ReadContext,
  query: PageQuery,
  limit: number,
  offset: number,
  relationsInStatement = false,
): PageRequest {
  // Relations the service embeds afterwards need their keys read; the statement's own need none.
  const extra = relationsInStatement ? [] : relationKeyFields(resource, query.with);
  const relations = relationsInStatement ? `|with:${relationsShape(query.with)}` : '';
  return {
    shape: `${shapeKey(resource, ctx, query, extra)}${relations}`,
    build: () => ({
      selection: selectionFor(resource, ctx, extra),
      jsonSelection: relationsInStatement
        ? jsonSelectionWithRelations(resource, ctx, query.with)
        : jsonSelectionFor(resource, ctx, extra),
      where: whereFor(resource, ctx, query),
      order: orderFor(resource, query.sort, rankFor(resource, query)),
      idsFirst: rankFor(resource, query) !== undefined,
    }),
    values: paramValues(ctx, query, resource),
    limit,
    offset,
    once: searchOnce(resource, query.search),
  };
}

/** A list answer: the envelope, or its JSON text when the page came as text (no relations to embed). */
export type ListAnswer = ListResult | string;

/**
 * The page size a storefront list applies, as SQL: the request clamped to the live ceiling
 * (`rest_max_page_size`), evaluated by the page's own statement, so no request waits on a separate
 * read of the settings. The default size (limit omitted or 0) is not clamped, and back-office
 * callers have no ceiling.
 */
function perPageOf(ctx: ReadContext, requested: number): { sql: () => SQL; mode: string } {
  const limit = sql.placeholder('limit');
  if (requested <= 0 || ctx.scope === 'backend') return { sql: () => sql`${limit}::int`, mode: 'asked' };
  const ceiling = () => ctx.settingsSource.valueSql('rest_max_page_size', 'positiveInteger');
  return { sql: () => sql`least(${limit}::int, ${ceiling()})`, mode: 'clamped' };
}

/**
 * A list with its state: one statement reads the page, its applied size and the table versions
 * (for a cached total). Without relations to embed, the page comes as the JSON text of the
 * answer's `data` and is sent as it stands; parsed rows also come with the stored settings.
 */
export async function listEntities(
  rctx: RequestContext,
  resource: Resource,
  raw: Record<string, unknown>,
): Promise<ListAnswer> {
  const base = baseContext(rctx);
  const query = parseListQuery(resource, raw, base.scope);
  const key = countKey(resource, base, query);
  const needsSettings = base.scope !== 'backend' || resource.def.usesSettings === true;
  if (!needsSettings && !key) return listWithoutState(base, resource, query);

  const size = query.limit > 0 ? query.limit : DEFAULT_PAGE_SIZE;
  const perPage = perPageOf(base, query.limit);
  const state = () => ({ perPage: perPage.sql(), settingsJson: rctx.settingsSource.storedJson() });
  const rankedKey = rankedPageKey(key, query, size);
  const ranked = rankedKey ? cachedRankedPage(rctx.db, rankedKey) : undefined;
  // A search seen before: its page by the remembered ids, kept when no table it reads changed since.
  if (ranked) {
    const read = await selectPageWithState(
      rctx.db,
      resource,
      { ...pageByIds(resource, base, ranked.ids, size, perPage.mode), pageNumber: 1, state },
      'text',
    );
    const version = versionOf(resource, query, read.versions);
    // biome-ignore lint/style/noNonNullAssertion: a remembered page exists only under a count key
    const total = cachedTotal(rctx.db, key!, version);
    if (version === ranked.version && read.perPage === ranked.perPage && total !== undefined) {
      return listText(read.rows, paginationOf(query.page, read.perPage, total));
    }
  }

  // A ranked page to remember comes parsed, for its ids; relations come in the page when they can.
  const relationsInStatement = embeddableInSql(resource, query.with);
  const rowsAs = relationsInStatement && !rankedKey ? 'text' : 'json';
  const page = pageOf(resource, base, query, size, 0, relationsInStatement);
  const read = await selectPageWithState(
    rctx.db,
    resource,
    {
      ...page,
      shape: `${page.shape}|${perPage.mode}`,
      // No fallback values here: spreading every setting's into each request's values cost ~45 µs.
      values: page.values,
      pageNumber: query.page,
      // Built with the statement, once per shape.
      state,
    },
    rowsAs,
  );
  const ctx: ReadContext =
    read.settings === undefined ? base : { ...base, settings: rctx.settingsSource.fromStored(read.settings) };
  const version = versionOf(resource, query, read.versions);
  let total = key ? cachedTotal(rctx.db, key, version) : undefined;
  if (total === undefined) {
    total = await countRows(rctx.db, resource, countOf(resource, ctx, query));
    // The count ran after the page's snapshot; a write in between makes the next request count again.
    if (key) rememberTotal(rctx.db, key, version, total);
  }
  const pagination = paginationOf(query.page, read.perPage, total);
  if (typeof read.rows === 'string') return listText(read.rows, pagination);
  if (rankedKey) {
    const ids = read.rows.map((row) => row.id as number);
    rememberRankedPage(rctx.db, rankedKey, { version, perPage: read.perPage, ids } satisfies RankedPage);
  }
  if (!relationsInStatement) await embedRelations(ctx, resource, read.rows, query.with);
  return okList(read.rows, pagination) satisfies ListResult;
}

/** A list answer from the JSON text of its page, sent as it stands. */
function listText(rows: string, pagination: Static<typeof Pagination>): string {
  return `{"success":true,"data":${rows},"pagination":${JSON.stringify(pagination)}}`;
}

/**
 * The rows of `ids` in that order, as the caller may read them (a remembered ranked page). `mode`
 * names how the statement's page size is computed (perPageOf), as it does in the page's own shape.
 */
function pageByIds(resource: Resource, ctx: ReadContext, ids: number[], size: number, mode: string) {
  const none = { filters: [], search: null, sort: [] };
  const idsParam = sql.placeholder('ids');
  return {
    shape: `${shapeKey(resource, ctx, none, [])}|byIds|${mode}`,
    build: () => ({
      selection: selectionFor(resource, ctx),
      jsonSelection: jsonSelectionFor(resource, ctx),
      where: sql`${resource.idColumn} = any(${idsParam}::bigint[])`,
      order: [sql`array_position(${idsParam}::bigint[], ${resource.idColumn}::bigint)`],
    }),
    values: { ...paramValues(ctx, none, resource), ids },
    limit: size,
    offset: 0,
  } satisfies PageRequest;
}

/** Back-office lists of resources without settings or cached totals: count and page at once. */
async function listWithoutState(ctx: ReadContext, resource: Resource, query: ListQuery) {
  const perPage = appliedPageSize(query.limit, ctx.scope, Number.MAX_SAFE_INTEGER);
  const page = pageOf(resource, ctx, query, perPage, (query.page - 1) * perPage);
  // Two connections on a pool; the page may turn out past the end.
  const [total, rows] = await Promise.all([
    countRows(ctx.db, resource, countOf(resource, ctx, query)),
    selectRows(ctx.db, resource, page),
  ]);
  return finishList(ctx, resource, rows, query, perPage, total);
}

function countOf(resource: Resource, ctx: ReadContext, query: ListQuery) {
  return {
    shape: shapeKey(resource, ctx, { ...query, sort: [], relevance: false }, []),
    where: () => whereFor(resource, ctx, query),
    values: paramValues(ctx, query, resource),
    once: searchOnce(resource, query.search),
  };
}

async function finishList(
  ctx: ReadContext,
  resource: Resource,
  rows: Row[],
  query: ListQuery,
  perPage: number,
  total: number,
) {
  toJsonRows(resource, ctx, rows);
  await embedRelations(ctx, resource, rows, query.with);
  return okList(rows, paginationOf(query.page, perPage, total)) satisfies ListResult;
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

async function finishOne(
  ctx: ReadContext,
  resource: Resource,
  rows: Row[],
  tree: WithTree,
): Promise<OneResult> {
  toJsonRows(resource, ctx, rows);
  await embedRelations(ctx, resource, rows, tree);
  return ok(rows[0]);
}

/** One entity by id, as far as the caller may see it: hidden and foreign rows answer 404. */
export async function showEntity(
  rctx: RequestContext,
  resource: Resource,
  id: number,
  raw: Record<string, unknown> = {},
): Promise<OneResult> {
  const ctx = await withSettings(baseContext(rctx), resource);
  const idField = fieldOf(resource, 'id');
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
