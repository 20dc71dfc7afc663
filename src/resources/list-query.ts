import { AppError, type ErrorDetail } from '../http/errors.ts';
import { FieldError } from './fields.ts';
import { MAX_RELATION_DEPTH, relationAllowed } from './schemas.ts';
import { RANGE_OPS } from './types.ts';
import {
  canRead,
  type FieldInfo,
  type Filter,
  type ListPlan,
  type ListQuery,
  type ParsedSearch,
  type ReadContext,
  type ReadLocale,
  type RequestContext,
  type Resource,
  type Scope,
  type SortTerm,
  scopeOf,
  type WithTree,
} from './types.ts';

// The query string of a read, parsed once per request against the resource's field table into
// the plan every later step takes (the statement's shape and values, the cache keys). Keys are
// looked up by name (`price[gte]` arrives as a literal key); nothing is ever evaluated, and only
// declared fields the caller may read become conditions. Anything else is ignored.

/** At most this many values in one any-of filter (a,b,c). */
const MAX_ANY_OF = 100;
/** At most this many prefixed parameters of one name (option.Size, option.Colour, …). */
const MAX_PREFIXED = 10;

function visible(f: FieldInfo, scope: Scope): boolean {
  return f.onlyScope ? f.onlyScope === scope : canRead(scope, f.read);
}

function parseValue(f: FieldInfo, key: string, text: string, details: ErrorDetail[]): unknown {
  try {
    return f.codec.parse(text);
  } catch (err) {
    if (!(err instanceof FieldError)) throw err;
    details.push({ field: key, message: err.message });
    return undefined;
  }
}

function equality(f: FieldInfo, text: string, details: ErrorDetail[]): Filter | undefined {
  if (f.nullable && text === 'null') return { field: f, op: 'null', value: null };
  const parts = text.split(',');
  if (parts.length > MAX_ANY_OF) {
    details.push({ field: f.name, message: `at most ${MAX_ANY_OF} values` });
    return undefined;
  }
  const values = parts.map((p) => parseValue(f, f.name, p, details));
  if (values.some((v) => v === undefined)) return undefined;
  return values.length === 1
    ? { field: f, op: 'eq', value: values[0] }
    : { field: f, op: 'in', value: values };
}

function filtersOf(resource: Resource, raw: Record<string, unknown>, scope: Scope, details: ErrorDetail[]) {
  const filters: Filter[] = [];
  for (const f of resource.fields) {
    if (!f.filter || !(f.column || f.expr || f.where) || !visible(f, scope)) continue;
    if (f.prefixed) {
      filters.push(...prefixedFilters(f, raw, details));
      continue;
    }
    const eq = raw[f.name];
    if (f.filter !== 'range' && typeof eq === 'string' && eq !== '') {
      const filter = equality(f, eq, details);
      if (filter) filters.push(filter);
    }
    if (f.filter === 'eq') continue;
    for (const op of RANGE_OPS) {
      const key = `${f.name}[${op}]`;
      const text = raw[key];
      if (typeof text !== 'string' || text === '') continue;
      const value = parseValue(f, key, text, details);
      if (value !== undefined) filters.push({ field: f, op, value });
    }
  }
  return filters;
}

/** `option.Size=M,L`: one equality filter per `<name>.<arg>` key, in key order (one shape per count). */
function prefixedFilters(f: FieldInfo, raw: Record<string, unknown>, details: ErrorDetail[]): Filter[] {
  const prefix = `${f.name}.`;
  const keys = Object.keys(raw)
    .filter(
      (k) => k.startsWith(prefix) && k.length > prefix.length && typeof raw[k] === 'string' && raw[k] !== '',
    )
    .sort();
  if (keys.length > MAX_PREFIXED) {
    details.push({ field: prefix, message: `at most ${MAX_PREFIXED} parameters` });
    return [];
  }
  const filters: Filter[] = [];
  for (const key of keys) {
    const filter = equality(f, String(raw[key]), details);
    if (filter) filters.push({ ...filter, arg: key.slice(prefix.length) });
  }
  return filters;
}

/** The word that asks for relevance order in `sort` (resources with a search of their own). */
export const RELEVANCE = 'relevance';

function sortOf(
  resource: Resource,
  text: unknown,
  details: ErrorDetail[],
): { terms: SortTerm[]; relevance: boolean } {
  if (typeof text !== 'string' || text === '') return { terms: resource.defaultSort, relevance: true };
  const terms: SortTerm[] = [];
  let relevance = false;
  for (const term of text.split(',')) {
    if (term === RELEVANCE && resource.def.search && terms.length === 0) {
      relevance = true;
      continue;
    }
    const desc = term.startsWith('-');
    const name = desc ? term.slice(1) : term;
    const f = resource.field.get(name);
    // Any declared sort field, even one the caller cannot read (guests may sort by createdAt).
    if (!f?.sort || !f.column) {
      details.push({ field: 'sort', message: `cannot sort by ${name}` });
      continue;
    }
    terms.push({ field: f, desc });
  }
  return { terms: relevance && terms.length === 0 ? resource.defaultSort : terms, relevance };
}

/** `with=category,category.parent` → {category: {parent: {}}}, keeping only what the caller may embed. */
export function parseWith(resource: Resource, text: unknown, scope: Scope): WithTree {
  const tree: WithTree = new Map();
  if (typeof text !== 'string' || text === '') return tree;
  for (const path of text.split(',').slice(0, 20)) {
    let node = tree;
    let current = resource;
    for (const name of path.split('.').slice(0, MAX_RELATION_DEPTH)) {
      if (!relationAllowed(current, name, scope)) break;
      let child = node.get(name);
      if (!child) {
        child = new Map();
        node.set(name, child);
      }
      node = child;
      const relation = current.def.relations?.[name];
      if (!relation) break;
      current = relation.target();
    }
  }
  return tree;
}

/** Parses page, limit, filters, ranges, sort, search and relations; a bad value is a 400 naming it. */
export function parseListQuery(resource: Resource, raw: Record<string, unknown>, scope: Scope): ListQuery {
  const details: ErrorDetail[] = [];
  const filters = filtersOf(resource, raw, scope, details);
  const sort = sortOf(resource, raw.sort, details);
  if (details.length) {
    throw new AppError(
      'VALIDATION_FAILED',
      details.map((d) => `${d.field} ${d.message}`).join('; '),
      details,
    );
  }
  const q = typeof raw.q === 'string' ? raw.q.trim() : '';
  const search = q === '' ? null : q;
  return {
    page: typeof raw.page === 'number' ? raw.page : 1,
    limit: typeof raw.limit === 'number' ? raw.limit : 0,
    filters,
    sort: sort.terms,
    search,
    // Only a resource with its own search ranks; elsewhere q keeps the requested order.
    relevance: search !== null && sort.relevance && resource.def.search !== undefined,
    with: parseWith(resource, raw.with, scope),
  };
}

/** Escapes LIKE wildcards so a search for "50%" means the text "50%". */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** q as the resource's own search reads it, else one ILIKE pattern over the searchable fields. */
function searchOf(resource: Resource, search: string | null): ParsedSearch | null {
  if (search === null) return null;
  const own = resource.def.search;
  return own ? own.parse(search) : { shape: 'ilike', values: { q: likePattern(search) } };
}

/** The part of a statement's shape a relation tree decides. */
export function relationsShape(tree: WithTree): string {
  return [...tree].map(([name, sub]) => (sub.size > 0 ? `${name}(${relationsShape(sub)})` : name)).join(',');
}

function shapeOf(resource: Resource, ctx: ReadContext, query: ListQuery, search: ParsedSearch | null) {
  const filters = query.filters.map((f) => `${f.field.name}${f.op}`).join(',');
  const sort = query.sort.map((t) => `${t.desc ? '-' : ''}${t.field.name}`).join(',');
  const rank = query.relevance ? 'rank,' : '';
  const q = search ? `q:${search.shape}` : '';
  const locale = `${ctx.translateTo ?? ''}${search ? servedKey(ctx) : ''}`;
  return `${resource.name}|${ctx.scope}|${ctx.caller.kind}|${locale}|${filters}|${q}|${rank}${sort}|${relationsShape(query.with)}`;
}

function valuesOf(ctx: ReadContext, query: ListQuery, search: ParsedSearch | null): Record<string, unknown> {
  const values: Record<string, unknown> = {
    customerId: ctx.caller.kind === 'customer' ? ctx.caller.customerId : null,
  };
  query.filters.forEach((filter, i) => {
    values[`f${i}`] = filter.value;
    if (filter.arg !== undefined) values[`f${i}a`] = filter.arg;
  });
  return search ? Object.assign(values, search.values) : values;
}

/** The cache key of a list's total, or null when the total cannot be cached. */
function countKeyOf(resource: Resource, ctx: ReadContext, query: ListQuery): string | null {
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
  const search = query.search === null ? '' : `${query.search}${servedKey(ctx)}`;
  return `${resource.name}|${visibility}|${ctx.translateTo ?? ''}|${filters}|${search}`;
}

/** The plan of a parsed query. */
export function planOf(resource: Resource, ctx: ReadContext, query: ListQuery): ListPlan {
  const search = searchOf(resource, query.search);
  return {
    resource,
    ctx,
    query,
    search,
    shape: shapeOf(resource, ctx, query, search),
    values: valuesOf(ctx, query, search),
    once: search?.once === true,
    clamped: query.limit > 0 && ctx.scope !== 'backend',
    countKey: countKeyOf(resource, ctx, query),
  };
}

/** A search's part of a key: the locales whose texts it matches (another set matches other rows). */
function servedKey(ctx: ReadContext): string {
  return ctx.servedLocales ? `|in:${ctx.servedLocales.join(',')}` : '';
}

/** A read of the own fields, matching texts in any locale. */
export const OWN_FIELDS: ReadLocale = { translateTo: null, servedLocales: null };

function readContext(resource: Resource, rctx: RequestContext, locale: ReadLocale): ReadContext {
  const scope = scopeOf(rctx.caller);
  const kept = resource.def.keptValues;
  return { ...rctx, scope, ...locale, keptValues: kept?.scopes.includes(scope) ? kept : undefined };
}

/**
 * The plan of a list or item request: the query string parsed once. `translateTo`: the locale whose
 * translations it renders (null: the fields' own values).
 */
export function planList(
  resource: Resource,
  rctx: RequestContext,
  raw: Record<string, unknown>,
  locale: ReadLocale = OWN_FIELDS,
): ListPlan {
  const ctx = readContext(resource, rctx, locale);
  return planOf(resource, ctx, parseListQuery(resource, raw, ctx.scope));
}

/** The plan of one record by id (`with` the only parameter read). */
export function planOne(
  resource: Resource,
  rctx: RequestContext,
  id: number,
  raw: Record<string, unknown>,
  locale: ReadLocale = OWN_FIELDS,
): ListPlan {
  const ctx = readContext(resource, rctx, locale);
  const idField = resource.field.get('id');
  const filters: Filter[] = idField ? [{ field: idField, op: 'eq', value: id }] : [];
  const query: ListQuery = {
    page: 1,
    limit: 1,
    filters,
    sort: [],
    search: null,
    relevance: false,
    with: parseWith(resource, raw.with, ctx.scope),
  };
  return planOf(resource, ctx, query);
}
