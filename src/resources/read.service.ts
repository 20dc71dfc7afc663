import { hash } from 'node:crypto';
import { getTableName } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { ONE_ROW, run, runJson } from '../db/statements.ts';
import { ok } from '../http/envelope.ts';
import { AppError } from '../http/errors.ts';
import { planList, planOne } from './list-query.ts';
import { DEFAULT_PAGE_SIZE, paginationOf } from './pagination.ts';
import { countStatement, type PageRows, pageStatement, type Row, versionsJson } from './repo.ts';
import type { ListPlan, RequestContext, Resource } from './types.ts';

// The read use cases of every resource: list (page and exact total), item (first match) and show
// (by id). Every read is one plan (list-query.ts) and one call, `readPage`: one statement that
// answers the applied page size, the table versions and the page as the JSON text that is sent.
// The caches are wrappers around that call: the cached total (counted only when no total of the
// same table version is kept) and the remembered ranked page (a search asked again renders its
// remembered ids). Docs: docs/resources.md, "The list path, file by file".

export interface OneResult {
  success: true;
  data: Row;
}

/** A least-recently-used map per database handle: tests and tools may run several databases in one process. */
export class VersionedCache<T extends { version: string }> {
  private readonly caches = new WeakMap<object, Map<string, T>>();
  private static readonly MAX_ENTRIES = 5000;

  private entriesOf(db: object): Map<string, T> {
    let entries = this.caches.get(db);
    if (!entries) {
      entries = new Map();
      this.caches.set(db, entries);
    }
    return entries;
  }

  /** The entry of `key` whatever its version; the caller compares versions. */
  get(db: object, key: string): T | undefined {
    const entries = this.entriesOf(db);
    const entry = entries.get(key);
    if (!entry) return undefined;
    // Refresh its place: the map's order is the eviction order (least recently used first).
    entries.delete(key);
    entries.set(key, entry);
    return entry;
  }

  set(db: object, key: string, entry: T): void {
    const entries = this.entriesOf(db);
    entries.delete(key);
    entries.set(key, entry);
    const oldest = entries.keys().next();
    if (entries.size > VersionedCache.MAX_ENTRIES && !oldest.done) entries.delete(oldest.value);
  }
}

/** The statement name of a shape: one name is one SQL text. */
function nameOf(kind: string, shape: string): string {
  return `rs_${hash('sha1', `${kind}|${shape}`, 'hex').slice(0, 24)}`;
}

/** What the page statement answered. */
type Page = {
  perPage: number;
  /** resource_version: table name → version (as text). */
  versions: Record<string, string>;
  /** The JSON text of the page's rows: the answer's `data` as it stands. */
  rows: string;
};

/** The one read: the page of `plan` (or of remembered ids) as JSON text, with its size and versions. */
async function readPage(plan: ListPlan, ids?: number[]): Promise<Page> {
  const rows: PageRows = ids ? 'byIds' : 'planned';
  const size = plan.query.limit > 0 ? plan.query.limit : DEFAULT_PAGE_SIZE;
  // A page by ids reads no filter nor search: one statement per resource and caller kind.
  const { resource, ctx } = plan;
  const of = ids ? `${resource.name}|${ctx.scope}|${ctx.caller.kind}` : plan.shape;
  const shape = `${of}|${rows}|${plan.clamped ? 'clamped' : 'asked'}`;
  const [read] = await runJson<Page>(
    ctx.db,
    nameOf('page', shape),
    (on) => pageStatement(on, plan, rows),
    ['perPage', 'versions', 'rows'],
    ids
      ? { customerId: plan.values.customerId, ids, limit: size }
      : { ...plan.values, limit: size, page: plan.query.page },
    ids ? false : plan.once,
  );
  return { ...read, perPage: Number(read.perPage) };
}

async function countRows(plan: ListPlan): Promise<number> {
  const [row] = await run(
    plan.ctx.db,
    nameOf('count', plan.shape),
    (on) => countStatement(on, plan),
    plan.values,
    plan.once,
  );
  return row?.n ?? 0;
}

/**
 * The version a cached value belongs to: the table's, and that of every other table one of the
 * filters reads (a category moved to another parent changes what categoryId=N matches).
 */
function versionOf(plan: ListPlan, versions: Record<string, string>): string {
  const tables = new Set([getTableName(plan.resource.def.table)]);
  for (const f of plan.query.filters) for (const t of f.field.dependsOn ?? []) tables.add(getTableName(t));
  return [...tables].map((t) => versions[t] ?? '0').join('.');
}

const totals = new VersionedCache<{ version: string; total: number }>();

/** The total of a plan's rows: kept per table version, counted when none is kept for the page's version. */
async function totalOf(plan: ListPlan, page: Page): Promise<number> {
  const { countKey, ctx } = plan;
  if (countKey === null) return countRows(plan);
  const version = versionOf(plan, page.versions);
  const kept = totals.get(ctx.db, countKey);
  if (kept?.version === version) return kept.total;
  // The count runs after the page's snapshot; a write in between makes the next request count again.
  const total = await countRows(plan);
  totals.set(ctx.db, countKey, { version, total });
  return total;
}

/**
 * The ids of a ranked page (a search), kept like totals: a search that reads and ranks thousands
 * of matching rows is answered next time by rendering its page's ids, while the tables it reads
 * keep their versions. `perPage` is the size the statement applied (the live ceiling may change).
 */
const rankedPages = new VersionedCache<{ version: string; perPage: number; ids: number[] }>();

/** The key of a ranked page's ids: a search whose total is cacheable, sorted by versioned columns only. */
function rankedPageKey(plan: ListPlan): string | null {
  const { countKey, query } = plan;
  if (!countKey || query.search === null || query.with.size > 0) return null;
  if (query.sort.some((t) => t.field.volatile)) return null;
  const sort = query.sort.map((t) => `${t.desc ? '-' : ''}${t.field.name}`).join(',');
  return `${countKey}|${query.relevance ? 'rank,' : ''}${sort}|${query.limit}|${query.page}`;
}

/** The page of a plan, through its remembered ids when a search was asked before and nothing changed. */
async function rememberedPage(plan: ListPlan): Promise<Page> {
  const key = rankedPageKey(plan);
  if (key === null) return readPage(plan);
  const kept = rankedPages.get(plan.ctx.db, key);
  if (kept) {
    const page = await readPage(plan, kept.ids);
    if (versionOf(plan, page.versions) === kept.version && page.perPage === kept.perPage) return page;
  }
  const page = await readPage(plan);
  const rows: { id: number }[] = JSON.parse(page.rows);
  const ids = rows.map((row) => row.id);
  rankedPages.set(plan.ctx.db, key, { version: versionOf(plan, page.versions), perPage: page.perPage, ids });
  return page;
}

/** A list answer: the envelope around the page's JSON text, sent as it stands. */
export async function listEntities(
  rctx: RequestContext,
  resource: Resource,
  raw: Record<string, unknown>,
): Promise<string> {
  const plan = planList(resource, rctx, raw);
  // Lists whose total is never cached count beside the page (two connections on a pool).
  const [page, total] =
    plan.countKey === null
      ? await Promise.all([readPage(plan), countRows(plan)])
      : await rememberedPage(plan).then(async (read) => [read, await totalOf(plan, read)] as const);
  const pagination = paginationOf(plan.query.page, page.perPage, total);
  return `{"success":true,"data":${page.rows},"pagination":${JSON.stringify(pagination)}}`;
}

/** The first row of a one-row plan's page, parsed; 404 `message` when there is none. */
async function firstOf(plan: ListPlan, message: string): Promise<OneResult> {
  const page = await readPage(plan);
  const rows: Row[] = JSON.parse(page.rows);
  const [row] = rows;
  if (!row) throw new AppError('NOT_FOUND', message);
  return ok(row);
}

/** The first entity matching the list's filters, search and sort; 404 when none. */
export function itemEntity(rctx: RequestContext, resource: Resource, raw: Record<string, unknown>) {
  const plan = planList(resource, rctx, raw);
  return firstOf(
    { ...plan, query: { ...plan.query, page: 1, limit: 1 }, clamped: plan.ctx.scope !== 'backend' },
    `no ${resource.def.entity} matches`,
  );
}

/** One entity by id, as far as the caller may see it: hidden and foreign rows answer 404. */
export function showEntity(
  rctx: RequestContext,
  resource: Resource,
  id: number,
  raw: Record<string, unknown> = {},
): Promise<OneResult> {
  return firstOf(planOne(resource, rctx, id, raw), `${resource.def.entity} ${id} not found`);
}

/** resource_version as table name → version (as text): what a cached value is checked against. */
export async function readVersions(db: Db): Promise<Record<string, string>> {
  const [row] = await runJson<{ versions: Record<string, string> }>(
    db,
    'resource_versions',
    (on) => on.select({ versions: versionsJson }).from(ONE_ROW),
    ['versions'],
  );
  return row.versions;
}
