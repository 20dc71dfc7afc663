import { getTableName } from 'drizzle-orm';
import type { ListQuery } from './list-query.ts';
import type { ReadContext, Resource } from './types.ts';

// Exact list totals without a count per request: a total is kept per (resource, visibility,
// filters, search) together with the table's version counter read in the same round trip as
// the settings; any write to the table (a trigger bumps the counter) makes it miss. A search's
// ranked page ids are kept the same way.

const MAX_ENTRIES = 5000;

/** A least-recently-used map per database handle: tests and tools may run several databases in one process. */
export class VersionedCache<T extends { version: string }> {
  private readonly caches = new WeakMap<object, Map<string, T>>();

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
    if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
  }
}

const totals = new VersionedCache<{ version: string; total: number }>();

export function versionName(resource: Resource): string {
  return getTableName(resource.def.table);
}

/** The cache key of a list's total, or null when the total cannot be cached. */
export function countKey(resource: Resource, ctx: ReadContext, query: ListQuery): string | null {
  if (!resource.def.countCache) return null;
  // Owner-filtered totals are per customer; not worth a shared cache.
  if (ctx.caller.kind === 'customer' && resource.ownerField) return null;
  if (query.filters.some((f) => f.field.volatile)) return null;
  const filters = query.filters
    .map(
      (f) =>
        `${f.field.name}${f.arg === undefined ? '' : `.${JSON.stringify(f.arg)}`}:${f.op}:${JSON.stringify(f.value)}`,
    )
    .join('&');
  const visibility = ctx.scope === 'backend' ? 'all' : 'storefront';
  return `${resource.name}|${visibility}|${filters}|${query.search ?? ''}`;
}

/**
 * The version a cached total belongs to: the table's, and that of every other table one of its
 * filters reads (a category moved to another parent changes what categoryId=N matches).
 */
export function versionOf(resource: Resource, query: ListQuery, versions: Record<string, string>): string {
  const tables = new Set([versionName(resource)]);
  for (const f of query.filters) for (const t of f.field.dependsOn ?? []) tables.add(getTableName(t));
  return [...tables].map((t) => versions[t] ?? '0').join('.');
}

export function cachedTotal(db: object, key: string, version: string): number | undefined {
  const entry = totals.get(db, key);
  return entry?.version === version ? entry.total : undefined;
}

export function rememberTotal(db: object, key: string, version: string, total: number): void {
  totals.set(db, key, { version, total });
}

/**
 * The ids of a ranked page (a search), kept like totals: a search that reads and ranks thousands
 * of matching rows is answered next time by rendering its page's ids, while the tables it reads
 * keep their versions. `perPage` is the size the statement applied (the live ceiling may change).
 */
export interface RankedPage {
  version: string;
  perPage: number;
  ids: number[];
}

const rankedPages = new VersionedCache<RankedPage>();

/** The key of a ranked page's ids: a search whose total is cacheable, sorted by versioned columns only. */
export function rankedPageKey(countKeyOfQuery: string | null, query: ListQuery, size: number): string | null {
  if (!countKeyOfQuery || query.search === null || query.with.size > 0) return null;
  if (query.sort.some((t) => t.field.volatile)) return null;
  const sort = query.sort.map((t) => `${t.desc ? '-' : ''}${t.field.name}`).join(',');
  return `${countKeyOfQuery}|${query.relevance ? 'rank,' : ''}${sort}|${size}|${query.page}`;
}

export function cachedRankedPage(db: object, key: string): RankedPage | undefined {
  return rankedPages.get(db, key);
}

export function rememberRankedPage(db: object, key: string, page: RankedPage): void {
  rankedPages.set(db, key, page);
}
