import { and, asc, desc, eq, gt, gte, ilike, inArray, isNull, lt, lte, or, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Filter, SortTerm } from './list-query.ts';
import { canRead, type FieldInfo, type ReadContext, type Resource } from './types.ts';

// The one list builder: every entity's filters, ranges, search, visibility and order become SQL
// here, from the field table (after vendure's list-query-builder). Values are always bound
// parameters; column names come from the definitions, never from the request.

export type Selection = Record<string, PgColumn | SQL>;

/** The columns a caller may read (and nothing else), plus keys the relations need. */
export function selectionFor(resource: Resource, ctx: ReadContext, extra: readonly FieldInfo[] = []): Selection {
  const fields: Selection = {};
  for (const f of resource.readable[ctx.scope]) fields[f.name] = f.column ?? f.expr!(ctx);
  for (const f of extra) if (f.column) fields[f.name] ??= f.column;
  return fields;
}

function filterSql(filter: Filter): SQL | undefined {
  const column = filter.field.column!;
  switch (filter.op) {
    case 'eq':
      return eq(column, filter.value);
    case 'in':
      return inArray(column, filter.value as unknown[]);
    case 'null':
      return isNull(column);
    case 'gte':
      return gte(column, filter.value);
    case 'lte':
      return lte(column, filter.value);
    case 'gt':
      return gt(column, filter.value);
    case 'lt':
      return lt(column, filter.value);
  }
}

/** Escapes LIKE wildcards so a search for "50%" means the text "50%". */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function searchSql(resource: Resource, ctx: ReadContext, text: string): SQL | undefined {
  const pattern = likePattern(text);
  const columns = resource.fields.filter((f) => f.search && f.column && canRead(ctx.scope, f.read));
  return or(...columns.map((f) => ilike(f.column!, pattern)));
}

/**
 * What rows the caller may reach at all: storefront callers see only what the resource shows
 * them (e.g. active rows); customers only their own rows of an owned resource.
 */
export function visibility(resource: Resource, ctx: ReadContext): SQL[] {
  const parts: SQL[] = [];
  const access = resource.def.read.access;
  if (ctx.scope !== 'backend') {
    if (access === 'backend' || (access === 'owner' && ctx.caller.kind !== 'customer')) {
      throw new Error(`${resource.name}: read without access`);
    }
    if (resource.def.storefront) parts.push(resource.def.storefront(ctx));
  }
  if (ctx.caller.kind === 'customer' && resource.ownerField) {
    parts.push(eq(resource.ownerField.column!, ctx.caller.customerId));
  }
  return parts;
}

export function whereFor(
  resource: Resource,
  ctx: ReadContext,
  query: { filters: readonly Filter[]; search: string | null },
): SQL | undefined {
  const parts: (SQL | undefined)[] = visibility(resource, ctx);
  for (const filter of query.filters) parts.push(filterSql(filter));
  if (query.search) parts.push(searchSql(resource, ctx, query.search));
  return and(...parts);
}

/** The requested order with id as the final tie-breaker, in the last term's direction (index-friendly). */
export function orderFor(resource: Resource, sort: readonly SortTerm[]): SQL[] {
  const order = sort.map((t) => (t.desc ? desc(t.field.column!) : asc(t.field.column!)));
  if (!sort.some((t) => t.field.column === resource.idColumn)) {
    const last = sort[sort.length - 1];
    order.push(last?.desc ? desc(resource.idColumn) : asc(resource.idColumn));
  }
  return order;
}
