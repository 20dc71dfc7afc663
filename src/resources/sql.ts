import { and, asc, desc, eq, ilike, or, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Filter, SortTerm } from './list-query.ts';
import {
  canRead,
  columnOf,
  type FieldInfo,
  type ReadContext,
  type Resource,
  readExpression,
} from './types.ts';

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
      if (!f.column) return [f.name, readExpression(f, ctx)];
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
      let value = f.column ? (f.codec.json?.(f.column) ?? f.column) : readExpression(f, ctx);
      if (f.shownWhen)
        value = sql`case when ${ctx.settingsSource.valueSql(f.shownWhen, 'boolean')} then ${value} end`;
      return [f.name, sql`${value}`.as(f.name)];
    }),
  );
}

/** What a filter compares: the column, or a computed field's expression (stockStatus). */
function filterTarget(filter: Filter, ctx: ReadContext): SQL | PgColumn {
  return readExpression(filter.field, ctx);
}

function filterSql(filter: Filter, i: number, ctx: ReadContext): SQL | undefined {
  const value = sql.placeholder(`f${i}`);
  const { where } = filter.field;
  if (where && (filter.op === 'eq' || filter.op === 'in')) {
    return where(ctx, filter.op, sql`${value}`, sql`${sql.placeholder(`f${i}a`)}`);
  }
  const target = filterTarget(filter, ctx);
  if (filter.op === 'null') return sql`${target} is null`;
  switch (filter.op) {
    case 'eq':
      return sql`${target} = ${value}`;
    case 'in':
      // One placeholder for the whole list: the statement's shape does not depend on its length.
      return sql`${target} = any(${value})`;
    case 'gte':
      return sql`${target} >= ${value}`;
    case 'lte':
      return sql`${target} <= ${value}`;
    case 'gt':
      return sql`${target} > ${value}`;
    case 'lt':
      return sql`${target} < ${value}`;
  }
}

/** Each filter's condition, in the order of `query.filters` (facets leave their own one out). */
export function filterConditions(ctx: ReadContext, query: Query): (SQL | undefined)[] {
  return query.filters.map((filter, i) => filterSql(filter, i, ctx));
}

/** Escapes LIKE wildcards so a search for "50%" means the text "50%". */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The condition of q: the resource's own search, or ILIKE over the searchable fields the caller reads. */
export function searchCondition(
  resource: Resource,
  ctx: ReadContext,
  search: string | null,
): SQL | undefined {
  if (search === null) return undefined;
  const own = resource.def.search;
  if (own) return own.where(own.parse(search).shape);
  const pattern = sql.placeholder('q');
  const columns = resource.fields.filter((f) => f.search && f.column && canRead(ctx.scope, f.read));
  return or(...columns.map((f) => ilike(columnOf(f), pattern)));
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
    parts.push(eq(columnOf(resource.ownerField), inline ? ctx.caller.customerId : CUSTOMER_ID));
  }
  return parts;
}

export function whereFor(resource: Resource, ctx: ReadContext, query: Query): SQL | undefined {
  return and(
    ...visibility(resource, ctx),
    ...filterConditions(ctx, query),
    searchCondition(resource, ctx, query.search),
  );
}

/** The placeholder values of a request: what whereFor's statement is executed with. */
export function paramValues(ctx: ReadContext, query: Query, resource: Resource): Record<string, unknown> {
  const values: Record<string, unknown> = { customerId: customerParam(ctx) };
  query.filters.forEach((filter, i) => {
    values[`f${i}`] = filter.value;
    if (filter.arg !== undefined) values[`f${i}a`] = filter.arg;
  });
  if (query.search) {
    const own = resource.def.search;
    if (own) Object.assign(values, own.parse(query.search).values);
    else values.q = likePattern(query.search);
  }
  return values;
}

/** The requested order with id as the final tie-breaker, in the last term's direction (index-friendly). */
export function orderFor(resource: Resource, sort: readonly SortTerm[], rank?: SQL): SQL[] {
  const order = sort.map((t) => (t.desc ? desc(columnOf(t.field)) : asc(columnOf(t.field))));
  if (rank) order.unshift(sql`${rank} desc`);
  if (!sort.some((t) => t.field.column === resource.idColumn)) {
    const last = sort[sort.length - 1];
    order.push(last?.desc ? desc(resource.idColumn) : asc(resource.idColumn));
  }
  return order;
}

/** The relevance order of a query, when it asks for one (see ListQuery.relevance). */
export function rankFor(resource: Resource, query: Query & { relevance?: boolean }): SQL | undefined {
  const own = resource.def.search;
  if (!own || !query.relevance || query.search === null) return undefined;
  return own.rank(own.parse(query.search).shape);
}

/** True when q's statements run unnamed (the resource's search puts q itself into the text). */
export function searchOnce(resource: Resource, search: string | null): boolean {
  return search !== null && resource.def.search?.parse(search).once === true;
}

/** What part of a statement's text q decides: the resource's search shape, or one ILIKE. */
export function searchShape(resource: Resource, search: string | null): string {
  if (search === null) return '';
  return resource.def.search ? `q:${resource.def.search.parse(search).shape}` : 'q';
}

/** A statement shape's cache key: everything that changes the SQL text, nothing that only changes values. */
export function shapeKey(
  resource: Resource,
  ctx: ReadContext,
  query: Query & { sort: readonly SortTerm[]; relevance?: boolean },
  extra: readonly FieldInfo[],
): string {
  const filters = query.filters.map((f) => `${f.field.name}${f.op}`).join(',');
  const sort = query.sort.map((t) => `${t.desc ? '-' : ''}${t.field.name}`).join(',');
  const keys = extra.map((f) => f.name).join(',');
  const search = searchShape(resource, query.search);
  const rank = query.relevance && resource.def.search ? 'rank,' : '';
  return `${resource.name}|${ctx.scope}|${ctx.caller.kind}|${filters}|${search}|${rank}${sort}|${keys}`;
}
