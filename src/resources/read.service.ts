import { hash } from 'node:crypto';
import { getTableName } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { ONE_ROW, run, runJson } from '../db/statements.ts';
import { ok } from '../http/envelope.ts';
import { AppError } from '../http/errors.ts';
import { OWN_FIELDS, planList, planOne } from './list-query.ts';
import { DEFAULT_PAGE_SIZE, paginationOf } from './pagination.ts';
import { countStatement, type PageRows, pageStatement, type Row, versionsJson } from './repo.ts';
import { isLocaleCode, isTranslatable, type ServedLocales, servedLocales } from './translations.ts';
import type {
  KeptParameters,
  ListPlan,
  ReadLocale,
  RequestContext,
  Resource,
  SettingsSource,
} from './types.ts';
import type { LocaleRequest } from '../http/locale.ts';

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

/** Statement names of the shapes seen, by shape (a digest per request cost more than the lookup). */
const names = new Map<string, string>();
/** Names kept before the map starts again (shapes come from query strings: not a bounded set). */
const MAX_NAMES = 2_000;

/** The statement name of a shape: one name is one SQL text. */
function nameOf(kind: string, shape: string): string {
  const key = `${kind}|${shape}`;
  let name = names.get(key);
  if (name === undefined) {
    name = `rs_${hash('sha1', key, 'hex').slice(0, 24)}`;
    if (names.size >= MAX_NAMES) names.clear();
    names.set(key, name);
  }
  return name;
}

/** What the page statement answered. */
type Page = {
  perPage: number;
  /** resource_version: table name → version (as text). */
  versions: Record<string, string>;
  /** The JSON text of the page's rows (as its UTF-8 bytes on PostgreSQL): the answer's `data` as it stands. */
  rows: string | Buffer;
  /** A translatable resource's stored locale settings (translations.ts LOCALE_SETTINGS), else null. */
  locales: Record<string, unknown> | null;
};

/** The one read: the page of `plan` (or of remembered ids) as JSON text, with its size and versions. */
async function readPage(plan: ListPlan, ids?: number[]): Promise<Page> {
  const rows: PageRows = ids ? 'byIds' : 'planned';
  const size = plan.query.limit > 0 ? plan.query.limit : DEFAULT_PAGE_SIZE;
  // A page by ids reads no filter nor search: one statement per resource and caller kind.
  const { resource, ctx } = plan;
  const of = ids ? `${resource.name}|${ctx.scope}|${ctx.caller.kind}` : plan.shape;
  const shape = `${of}|${rows}|${plan.clamped ? 'clamped' : 'asked'}`;
  const values = ids
    ? { customerId: plan.values.customerId, ids, limit: size }
    : { ...plan.values, limit: size, page: plan.query.page };
  const read = async (on: Db, kept?: KeptParameters) => {
    // The kept values' variant is part of the statement's text, so of its name.
    const [page] = await runJson<Page>(
      on,
      nameOf('page', kept ? `${shape}|${kept.variant}` : shape),
      (db) => pageStatement(db, kept ? { ...plan, ctx: { ...ctx, keptVariant: kept.variant } } : plan, rows),
      ['perPage', 'versions', 'rows', 'locales'],
      { ...values, ...kept?.values },
      ids ? false : plan.once,
    );
    return { ...page, perPage: Number(page.perPage) };
  };
  const kept = ctx.keptValues;
  if (kept === undefined) return read(ctx.db);
  // With the copy last kept; after a write to its tables, with the copy of the versions the
  // statement saw. Writes that keep moving them between the two reads are followed a few times,
  // then copy and page are read in one snapshot.
  const { db } = ctx;
  let copy = kept.copy.lastKept(db) ?? (await kept.copy.copyAt(db, db, null));
  for (let attempt = 1; attempt < MAX_KEPT_READS; attempt++) {
    const page = await read(db, kept.values(copy, new Date()));
    if (kept.copy.keptAt(db, page.versions) === copy) return page;
    copy = await kept.copy.copyAt(db, db, page.versions);
  }
  return db.transaction(
    async (tx) => read(tx, kept.values(await kept.copy.copyAt(db, tx, null), new Date())),
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

/** Reads of a page with a kept copy before it reads both in one snapshot (readPage). */
const MAX_KEPT_READS = 3;

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
  const rows: { id: number }[] = JSON.parse(page.rows.toString());
  const ids = rows.map((row) => row.id);
  rankedPages.set(plan.ctx.db, key, { version: versionOf(plan, page.versions), perPage: page.perPage, ids });
  return page;
}

/** The default locale the last read of a database found: a read asking for it renders the own fields at once. */
const defaultLocaleSeen = new WeakMap<object, string>();
/** The locales the last read of a database found served: a search assumes them (ReadContext.servedLocales). */
const servedLocalesSeen = new WeakMap<object, readonly string[]>();

/** The locale an answer is in: `?locale=` (enabled, else 400), else the best enabled Accept-Language, else the default. */
function settle(asked: LocaleRequest | undefined, served: ServedLocales): string {
  const explicit = asked?.explicit ?? null;
  if (explicit === null) return asked?.accepted.find((l) => served.enabled.includes(l)) ?? served.default;
  if (served.enabled.includes(explicit)) return explicit;
  throw new AppError('VALIDATION_FAILED', `locale ${explicit} is not one of ${served.enabled.join(', ')}`, [
    { field: 'locale', message: `${explicit} is not an enabled locale` },
  ]);
}

/**
 * What a request asks for. A back-office caller reads the own fields unless `?locale=` asks for
 * another locale: its browser's Accept-Language would otherwise put a translation in the field a
 * form then saves as the default text.
 */
function askedBy(rctx: RequestContext): LocaleRequest | undefined {
  const asked = rctx.locale;
  return asked && rctx.caller.kind === 'admin' ? { explicit: asked.explicit, accepted: [] } : asked;
}

/** Served locales by the stored locale settings a page read, per settings source (a few values at most). */
const servedByStored = new WeakMap<SettingsSource, Map<string, ServedLocales>>();

/** The locales the stored settings serve: worked out once per value (merging the settings cost 3-10 µs a read). */
function servedIn(source: SettingsSource, stored: Record<string, unknown> | null): ServedLocales {
  const key = JSON.stringify(stored ?? {});
  let seen = servedByStored.get(source);
  if (seen === undefined) {
    seen = new Map();
    servedByStored.set(source, seen);
  }
  let served = seen.get(key);
  if (served === undefined) {
    served = servedLocales(source.fromStored(stored ?? {}));
    if (seen.size >= 16) seen.clear();
    seen.set(key, served);
  }
  return served;
}

/**
 * Reads in the locale the request settles on (docs/translations.md). The locale settings come with
 * the page (one statement), so the read first renders the locale asked for first and reads again
 * only when the settings serve another one (a locale not enabled in Accept-Language). The served
 * locale is left on the request's LocaleRequest (Content-Language).
 */
async function inLocale<T extends { page: Page }>(
  rctx: RequestContext,
  resource: Resource,
  read: (locale: ReadLocale) => Promise<T>,
): Promise<T> {
  if (!isTranslatable(resource)) return read(OWN_FIELDS);
  const asked = askedBy(rctx);
  const first = asked?.explicit ?? asked?.accepted[0] ?? null;
  // A code no setting can hold is never rendered: the settled locale (or the 400) decides.
  const used = !isLocaleCode(first) || first === defaultLocaleSeen.get(rctx.db) ? null : first;
  const assumed = servedLocalesSeen.get(rctx.db) ?? [];
  const result = await read({ translateTo: used, servedLocales: assumed });
  const served = servedIn(rctx.settingsSource, result.page.locales);
  defaultLocaleSeen.set(rctx.db, served.default);
  servedLocalesSeen.set(rctx.db, served.enabled);
  const code = settle(asked, served);
  if (rctx.locale) rctx.locale.served = code;
  const wanted = code === served.default ? null : code;
  const sameServed = assumed === served.enabled || assumed.join(',') === served.enabled.join(',');
  if ((used === wanted || used === code) && sameServed) return result;
  return read({ translateTo: wanted, servedLocales: served.enabled });
}

/**
 * The locale a read of its own (a module's statement over a resource, e.g. facets) renders: settled
 * from the request and the settings (one read of them), and left on the request for
 * Content-Language; null: the fields' own values.
 */
export async function settledLocale(rctx: RequestContext): Promise<ReadLocale> {
  const served = servedLocales(await rctx.settingsSource.read(rctx.db));
  const code = settle(askedBy(rctx), served);
  if (rctx.locale) rctx.locale.served = code;
  return { translateTo: code === served.default ? null : code, servedLocales: served.enabled };
}

const LIST_HEAD = '{"success":true,"data":';
const LIST_HEAD_BYTES = Buffer.from(LIST_HEAD);

/** A list answer: the envelope around the page's JSON text (or its bytes), sent as it stands. */
export async function listEntities(
  rctx: RequestContext,
  resource: Resource,
  raw: Record<string, unknown>,
): Promise<string | Buffer> {
  const { page, total, plan } = await inLocale(rctx, resource, async (locale) => {
    const plan = planList(resource, rctx, raw, locale);
    // Lists whose total is never cached count beside the page (two connections on a pool).
    const [page, total] =
      plan.countKey === null
        ? await Promise.all([readPage(plan), countRows(plan)])
        : await rememberedPage(plan).then(async (read) => [read, await totalOf(plan, read)] as const);
    return { page, total, plan };
  });
  const tail = `,"pagination":${JSON.stringify(paginationOf(plan.query.page, page.perPage, total))}}`;
  if (typeof page.rows === 'string') return `${LIST_HEAD}${page.rows}${tail}`;
  return Buffer.concat([LIST_HEAD_BYTES, page.rows, Buffer.from(tail)]);
}

/** The first row of a one-row plan's page, parsed; 404 `message` when there is none. */
async function firstOf(
  rctx: RequestContext,
  resource: Resource,
  planIn: (locale: ReadLocale) => ListPlan,
  message: string,
): Promise<OneResult> {
  const { page } = await inLocale(rctx, resource, async (locale) => ({
    page: await readPage(planIn(locale)),
  }));
  const rows: Row[] = JSON.parse(page.rows.toString());
  const [row] = rows;
  if (!row) throw new AppError('NOT_FOUND', message);
  return ok(row);
}

/** The first entity matching the list's filters, search and sort; 404 when none. */
export function itemEntity(rctx: RequestContext, resource: Resource, raw: Record<string, unknown>) {
  const planIn = (locale: ReadLocale): ListPlan => {
    const plan = planList(resource, rctx, raw, locale);
    return { ...plan, query: { ...plan.query, page: 1, limit: 1 }, clamped: plan.ctx.scope !== 'backend' };
  };
  return firstOf(rctx, resource, planIn, `no ${resource.def.entity} matches`);
}

/** One entity by id, as far as the caller may see it: hidden and foreign rows answer 404. */
export function showEntity(
  rctx: RequestContext,
  resource: Resource,
  id: number,
  raw: Record<string, unknown> = {},
): Promise<OneResult> {
  const planIn = (locale: ReadLocale) => planOne(resource, rctx, id, raw, locale);
  return firstOf(rctx, resource, planIn, `${resource.def.entity} ${id} not found`);
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
