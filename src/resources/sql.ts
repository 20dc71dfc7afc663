import { and, asc, desc, eq, ilike, or, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import {
  canRead,
  type FieldInfo,
  type Filter,
  type ListPlan,
  type ReadContext,
  type Resource,
  type SortTerm,
} from './types.ts';
import { anyLocaleEquals, translatedValue } from './translations.ts';

// The one list builder: a plan's filters, ranges, search, visibility and order become SQL here,
// from the field table (after vendure's list-query-builder), and only when a statement of the
// plan's shape is built (repo.ts). Values are never inlined: filter i is the placeholder f<i>, the
// search's values are named by the search, the caller customerId; so one statement serves every
// request of its shape. Column names come from the definitions, never from the request.

/** The calling customer's id, for owner conditions and customer-specific fields. */
export const CUSTOMER_ID = sql.placeholder('customerId');

/** A field's value as SQL: its column (in the read's locale when translatable), or a computed field's expression (stockStatus). */
function fieldValue(resource: Resource, f: FieldInfo, ctx: ReadContext): SQL | PgColumn {
  if (f.column && f.translatable && ctx.translateTo) return translatedValue(resource, f, ctx.translateTo);
  if (f.column) return f.column;
  if (f.expr) return f.expr(ctx);
  throw new Error(`${f.name}: a filter condition only, no value`);
}

/** A stored field as the answer shows it: in the read's locale when translatable, else through its read expression, if any, then its JSON codec. */
function storedValue(resource: Resource, f: FieldInfo, column: PgColumn, ctx: ReadContext): SQL | PgColumn {
  if (f.translatable) return fieldValue(resource, f, ctx);
  const read = f.readAs ? f.readAs(column, ctx) : column;
  return f.codec.json?.(read) ?? read;
}

/** A stored field's value in the read's locale (its column in the default one), for a module's own statement. */
export function localizedValue(resource: Resource, name: string, ctx: ReadContext): SQL | PgColumn {
  const f = resource.field.get(name);
  if (!f?.column) throw new Error(`${resource.name}.${name}: not a stored field`);
  return fieldValue(resource, f, ctx);
}

/**
 * The fields the caller may read, each aliased to its name and rendered as the answer's JSON value
 * (the page is a json_agg over this select): money as decimals, timestamps as ISO text
 * (Codec.json), arrays as arrays, a field its setting switches off as null. The text of that array
 * is the answer's `data` as it stands.
 */
export function jsonSelectionFor(resource: Resource, ctx: ReadContext): Record<string, SQL.Aliased> {
  return Object.fromEntries(
    resource.readable[ctx.scope].map((f) => {
      let value = f.column ? storedValue(resource, f, f.column, ctx) : fieldValue(resource, f, ctx);
      if (f.shownWhen)
        value = sql`case when ${ctx.settingsSource.valueSql(f.shownWhen, 'boolean')} then ${value} end`;
      return [f.name, sql`${value}`.as(f.name)];
    }),
  );
}

function filterSql(resource: Resource, filter: Filter, i: number, ctx: ReadContext): SQL {
  const value = sql.placeholder(`f${i}`);
  const { where, translatable } = filter.field;
  if (where && (filter.op === 'eq' || filter.op === 'in')) {
    return where(ctx, filter.op, sql`${value}`, sql`${sql.placeholder(`f${i}a`)}`);
  }
  if (translatable && (filter.op === 'eq' || filter.op === 'in'))
    return anyLocaleEquals(resource, filter.field, filter.op, sql`${value}`);
  const target = fieldValue(resource, filter.field, ctx);
  switch (filter.op) {
    case 'null':
      return sql`${target} is null`;
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

/** Each filter's condition, in the order of the plan's filters (facets leave their own one out). */
export function filterConditions(plan: ListPlan): SQL[] {
  return plan.query.filters.map((filter, i) => filterSql(plan.resource, filter, i, plan.ctx));
}

/** The condition of q: the resource's own search, or ILIKE over the searchable fields the caller reads. */
export function searchCondition(plan: ListPlan): SQL | undefined {
  const { resource, ctx, search } = plan;
  if (search === null) return undefined;
  const own = resource.def.search;
  if (own) return own.where(search.shape, ctx.servedLocales);
  const pattern = sql.placeholder('q');
  // A translatable field matches in the read's locale and in the default one (its own value).
  const columns = resource.fields.flatMap((f) => {
    if (!f.search || !f.column || !canRead(ctx.scope, f.read)) return [];
    const own = [f.column];
    return f.translatable && ctx.translateTo ? [...own, translatedValue(resource, f, ctx.translateTo)] : own;
  });
  return or(...columns.map((column) => ilike(column, pattern)));
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
  const owner = resource.ownerField?.column;
  if (ctx.caller.kind === 'customer' && owner) {
    // Prepared reads take the id as a placeholder; one-off writes inline it.
    parts.push(eq(owner, inline ? ctx.caller.customerId : CUSTOMER_ID));
  }
  return parts;
}

export function whereFor(plan: ListPlan): SQL | undefined {
  return and(...visibility(plan.resource, plan.ctx), ...filterConditions(plan), searchCondition(plan));
}

function sortColumn(resource: Resource, term: SortTerm, ctx?: ReadContext): PgColumn | SQL {
  if (!term.field.column) throw new Error(`${term.field.name}: sorted but not a column`);
  if (term.field.translatable && ctx?.translateTo) return translatedValue(resource, term.field, ctx.translateTo);
  return term.field.column;
}

/**
 * The requested order with id as the final tie-breaker, in the last term's direction
 * (index-friendly); translatable fields by their text in the read's locale.
 */
export function orderFor(resource: Resource, sort: readonly SortTerm[], rank?: SQL, ctx?: ReadContext): SQL[] {
  const order = sort.map((t) => {
    const column = sortColumn(resource, t, ctx);
    return t.desc ? desc(column) : asc(column);
  });
  if (rank) order.unshift(sql`${rank} desc`);
  if (!sort.some((t) => t.field.column === resource.idColumn)) {
    const last = sort[sort.length - 1];
    order.push(last?.desc ? desc(resource.idColumn) : asc(resource.idColumn));
  }
  return order;
}

/** The relevance order of a plan, when it asks for one (see ListQuery.relevance). */
export function rankFor(plan: ListPlan): SQL | undefined {
  const own = plan.resource.def.search;
  if (!own || !plan.query.relevance || plan.search === null) return undefined;
  const { resource, ctx } = plan;
  return own.rank(plan.search.shape, (name) => {
    const f = resource.field.get(name);
    return f?.translatable && ctx.translateTo ? translatedValue(resource, f, ctx.translateTo) : undefined;
  });
}
