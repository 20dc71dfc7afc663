import { AppError, type ErrorDetail } from '../http/errors.ts';
import { FieldError } from './fields.ts';
import { MAX_RELATION_DEPTH, RANGE_OPS, type RangeOp, relationAllowed } from './schemas.ts';
import { canRead, type FieldInfo, type Resource, type Scope } from './types.ts';

// The query string of a list or item read, parsed against the resource's field table. Keys are
// looked up by name (`price[gte]` arrives as a literal key); nothing is ever evaluated, and only
// declared fields the caller may read become conditions. Anything else is ignored.

export type FilterOp = 'eq' | 'in' | 'null' | RangeOp;

export interface Filter {
  field: FieldInfo;
  op: FilterOp;
  value: unknown;
}

export interface SortTerm {
  field: FieldInfo;
  desc: boolean;
}

/** Relations to embed: name → nested relations of the target. */
export type WithTree = Map<string, WithTree>;

export interface ListQuery {
  page: number;
  /** As sent; 0 or absent means the default. */
  limit: number;
  filters: Filter[];
  sort: SortTerm[];
  search: string | null;
  with: WithTree;
}

/** At most this many values in one any-of filter (a,b,c). */
const MAX_ANY_OF = 100;

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
    if (!f.filter || !f.column || !visible(f, scope)) continue;
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

function sortOf(resource: Resource, text: unknown, details: ErrorDetail[]): SortTerm[] {
  if (typeof text !== 'string' || text === '') return resource.defaultSort;
  const terms: SortTerm[] = [];
  for (const term of text.split(',')) {
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
  return terms;
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
      current = current.def.relations![name].target();
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
  return {
    page: typeof raw.page === 'number' ? raw.page : 1,
    limit: typeof raw.limit === 'number' ? raw.limit : 0,
    filters,
    sort,
    search: q === '' ? null : q,
    with: parseWith(resource, raw.with, scope),
  };
}
