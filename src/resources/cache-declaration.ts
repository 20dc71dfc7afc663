import { getTableName } from 'drizzle-orm';
import type { CacheDeclaration } from './response-cache.ts';
import type { Resource } from './types.ts';

/** The settings table: currency, switched fields and the page size ceiling are read live. */
const SETTINGS_TABLE = 'setting';

/**
 * What a resource's storefront reads depend on: its table, the tables its filters read and, through
 * `with=`, every related resource's. Customers share the answers unless a field differs per
 * customer (`onlyScope: 'customer'`, e.g. inWishlist). Undefined: its reads are not cached.
 */
export function cacheDeclarationOf(
  resource: Resource,
  options: { customers?: boolean } = {},
): CacheDeclaration | undefined {
  if (!resource.def.publicCache || resource.def.read.access !== 'public') return undefined;
  const tables = new Set<string>([SETTINGS_TABLE]);
  const visited = new Set<Resource>();
  const visit = (r: Resource) => {
    if (visited.has(r)) return;
    visited.add(r);
    tables.add(getTableName(r.def.table));
    for (const f of r.fields) for (const t of f.dependsOn ?? []) tables.add(getTableName(t));
    for (const relation of Object.values(r.def.relations ?? {})) visit(relation.target());
  };
  visit(resource);
  return {
    tables: [...tables].sort(),
    customers: options.customers ?? !resource.fields.some((f) => f.onlyScope === 'customer'),
  };
}
