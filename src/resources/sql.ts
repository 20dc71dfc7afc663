import {
  and,
  asc,
  desc,
  eq,
  gt,
  gte,
  ilike,
  isNull,
  lt,
  lte,
  or,
  type Placeholder,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Filter, SortTerm } from './list-query.ts';
import { canRead, type FieldInfo, type ReadContext, type Resource } from './types.ts';

// The one list builder: every entity's filters, ranges, search, visibility and order become SQL
// here, from the field table (after vendure's list-query-builder). Values are never inlined:
// filter i is the placeholder f<i>, the search pattern q, the caller customerId; so one statement
// shape (built and prepared once, see repo.ts) serves every request of that shape, and
// paramValues() gives a request's values without building anything. Column names come from the
// definitions, never from the request.

export type Selection = Record<string, PgColumn | SQL>;

type Query = { filters: readonly Filter[]; search: string | null };

/** The calling customer's id, for owner conditions and customer-specific fields. */
export const CUSTOMER_ID = sql.placeholder('customerId');

export function customerParam(ctx: ReadContext): number | null {
  return ctx.caller.kind === 'customer' ? ctx.caller.customerId : null;
}

/** The fields a caller may read (and nothing else), plus keys the relations need; each once. */
function fieldsRead(resource: Resource, ctx: ReadContext, extra: readonly FieldInfo[]): FieldInfo[] {
  const byName = new Map<string, FieldInfo>();
  for (const f of [...resource.readable[ctx.scope], ...extra]) if (!byName.has(f.name)) byName.set(f.name, f);
  return [...byName.values()];
}

/** The columns of fieldsRead, for pages read as rows. */
export function selectionFor(
  resource: Resource,
  ctx: ReadContext,
  extra: readonly FieldInfo[] = [],
): Selection {
  return Object.fromEntries(
    fieldsRead(resource, ctx, extra).map((f) => {
      if (!f.column) return [f.name, f.expr!(ctx)];
      return [f.name, f.codec.select ? f.codec.select(f.column) : f.column];
    }),
  );
}

/**
 * The same fields, each aliased to its field name and rendered as the answer's JSON value, for
 * pages the database returns as one JSON array (json_agg over this select): money as decimals,
 * timestamps as ISO text (Codec.json), arrays as arrays, a field its setting switches off as null.
 * The text of that array is the answer's `data` as it stands.
 */
export function jsonSelectionFor(
  resource: Resource,
  ctx: ReadContext,
  extra: readonly FieldInfo[] = [],
): Record<string, SQL.Aliased> {
  return Object.fromEntries(
    fieldsRead(resource, ctx, extra).map((f) => {
      let value = f.column ? (f.codec.json?.(f.column) ?? f.column) : f.expr!(ctx);
      if (f.shownWhen)
        value = sql`case when ${ctx.settingsSource.valueSql(f.shownWhen, 'boolean')} then ${value} end`;
      return [f.name, sql`${value}`.as(f.name)];
    }),
  );
}

function filterSql(filter: Filter, value: Placeholder): SQL | undefined {
  const column = filter.field.column!;
  if (filter.op === 'null') return isNull(column);
  switch (filter.op) {
    case 'eq':
      return eq(column, value);
    case 'in':
      // One placeholder for the whole list: the statement's shape does not depend on its length.
      return sql`${column} = any(${value})`;
    case 'gte':
      return gte(column, value);
    case 'lte':
      return lte(column, value);
    case 'gt':
      return gt(column, value);
    case 'lt':
      return lt(column, value);
  }
}

/** Escapes LIKE wildcards so a search for "50%" means the text "50%". */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function searchSql(resource: Resource, ctx: ReadContext): SQL | undefined {
  const pattern = sql.placeholder('q');
  const columns = resource.fields.filter((f) => f.search && f.column && canRead(ctx.scope, f.read));
  return or(...columns.map((f) => ilike(f.column!, pattern)));
}

/**
 * What rows the caller may reach at all: storefront callers see only what the resource shows
 * them (e.g. active rows); customers only their own rows of an owned resource.
 */
export function visibility(resource: Resource, ctx: ReadContext, inline = false): SQL[] {
  const parts: SQL[] = [];
  const access = resource.def.read.access;
  if (ctx.scope !== 'backend') {
    if (access === 'backend' || (access === 'owner' && ctx.caller.kind !== 'customer')) {
      throw new Error(`${resource.name}: read without access`);
    }
    if (resource.def.storefront) parts.push(resource.def.storefront(ctx));
  }
  if (ctx.caller.kind === 'customer' && resource.ownerField) {
    // Prepared reads take the id as a placeholder; one-off writes inline it.
    parts.push(eq(resource.ownerField.column!, inline ? ctx.caller.customerId : CUSTOMER_ID));
  }
  return parts;
}

export function whereFor(resource: Resource, ctx: ReadContext, query: Query): SQL | undefined {
  const parts: (SQL | undefined)[] = visibility(resource, ctx);
  query.filters.forEach((filter, i) => {
    parts.push(filterSql(filter, sql.placeholder(`f${i}`)));
  });
  if (query.search) parts.push(searchSql(resource, ctx));
  return and(...parts);
}

/** The placeholder values of a request: what whereFor's statement is executed with. */
export function paramValues(ctx: ReadContext, query: Query): Record<string, unknown> {
  const values: Record<string, unknown> = { customerId: customerParam(ctx) };
  query.filters.forEach((filter, i) => {
    values[`f${i}`] = filter.value;
  });
  if (query.search) values.q = likePattern(query.search);
  return values;
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

/** A statement shape's cache key: everything that changes the SQL text, nothing that only changes values. */
export function shapeKey(
  resource: Resource,
  ctx: ReadContext,
  query: Query & { sort: readonly SortTerm[] },
  extra: readonly FieldInfo[],
): string {
  const filters = query.filters.map((f) => `${f.field.name}${f.op}`).join(',');
  const sort = query.sort.map((t) => `${t.desc ? '-' : ''}${t.field.name}`).join(',');
  const keys = extra.map((f) => f.name).join(',');
  return `${resource.name}|${ctx.scope}|${ctx.caller.kind}|${filters}|${query.search ? 'q' : ''}|${sort}|${keys}`;
}
