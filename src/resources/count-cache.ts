import { getTableName } from 'drizzle-orm';
import type { ListQuery } from './list-query.ts';
import type { ReadContext, Resource } from './types.ts';

// Exact list totals without a count per request: a total is kept per (resource, visibility,
// filters, search) together with the table's version counter read in the same round trip as
// the settings; any write to the table (a trigger bumps the counter) makes it miss.

const MAX_ENTRIES = 5000;

interface Entry {
  version: string;
  total: number;
}

/** Per database handle: tests and tools may run several databases in one process. */
const caches = new WeakMap<object, Map<string, Entry>>();

function entriesOf(db: object): Map<string, Entry> {
  let entries = caches.get(db);
  if (!entries) {
    entries = new Map();
    caches.set(db, entries);
  }
  return entries;
}

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
  const entries = entriesOf(db);
  const entry = entries.get(key);
  if (!entry || entry.version !== version) return undefined;
  // Refresh its place: the map's order is the eviction order (least recently used first).
  entries.delete(key);
  entries.set(key, entry);
  return entry.total;
}

export function rememberTotal(db: object, key: string, version: string, total: number): void {
  const entries = entriesOf(db);
  entries.delete(key);
  entries.set(key, { version, total });
  if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
}
