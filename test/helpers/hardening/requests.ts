import fc from 'fast-check';
import type { JsonSchema, Operation, Parameter } from './openapi.ts';
import { type Pools, poolFor, typesOf, validArb } from './values.ts';

// One fuzz request per sample: a valid request built from the operation's schemas, or one of
// the mutations below. Nothing here talks to the app; the fuzz test sends and judges.

export type CallerKind = 'guest' | 'customer' | 'admin';

export interface Fixtures {
  pools: Pools;
  /** Existing values of path parameters: collection path (or `key`/`productId`) → values. */
  pathValues: Map<string, (string | number)[]>;
}

export interface FuzzRequest {
  op: Operation;
  variant: string;
  caller: CallerKind;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

export const MUTATIONS = [
  'missing-required',
  'wrong-type',
  'boundary',
  'oversize-string',
  'nul-char',
  'oversize-body',
  'extra-property',
  'proto-key',
  'content-type',
  'malformed-json',
  'query-junk',
  'bracket-query',
  'path-junk',
  'path-unknown-id',
] as const;
export type Mutation = (typeof MUTATIONS)[number];

const RANGE_KEY = /\[(gte|lte|gt|lt)\]$/;
const BOOLEAN_NAMES = new Set(['active', 'newsletter', 'isDefault', 'inStock']);
const SORTS = ['id', '-id', 'name', '-price,name', 'createdAt', '-createdAt', 'position', 'title', 'addedAt'];
const RELATIONS = [
  'category',
  'category.parent',
  'category.parent.parent',
  'addresses',
  'customer',
  'product',
  'group',
  'sliders',
  'lines',
  'category,product',
];

/** The collection an id path parameter belongs to: /rest/a/b/{id}/x → /rest/a/b. */
export function collectionOf(path: string): string {
  return path.replace(/\/\{[^}]+\}.*$/, '');
}

function pathValueKey(op: Operation, param: string): string {
  return param === 'id' ? collectionOf(op.path) : param;
}

function pathArb(op: Operation, fx: Fixtures): fc.Arbitrary<Record<string, string>> {
  const model: Record<string, fc.Arbitrary<string>> = {};
  for (const p of op.parameters.filter((q) => q.in === 'path')) {
    const known = fx.pathValues.get(pathValueKey(op, p.name)) ?? [];
    const generated = validArb(p.schema, fx.pools, p.name).map(String);
    model[p.name] = known.length
      ? fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...known).map(String) }, generated)
      : generated;
  }
  return fc.record(model);
}

/** Header parameters (cart token, idempotency key): each sent half of the time, known values first. */
function headerArb(op: Operation, fx: Fixtures): fc.Arbitrary<Record<string, string>> {
  const model: Record<string, fc.Arbitrary<string | undefined>> = {};
  for (const p of op.parameters.filter((q) => q.in === 'header')) {
    const known = fx.pathValues.get(p.name.toLowerCase()) ?? [];
    // Header values must be printable ASCII, or the HTTP client refuses to send them.
    const generated = validArb(p.schema, fx.pools, p.name)
      .map(String)
      .filter((v) => /^[\x21-\x7e]*$/.test(v));
    const value = known.length ? fc.oneof(fc.constantFrom(...known).map(String), generated) : generated;
    model[p.name.toLowerCase()] = fc.option(value, { nil: undefined });
  }
  return fc.record(model).map((h) => {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k] = v;
    return out;
  });
}

function queryValueArb(p: Parameter, fx: Fixtures): fc.Arbitrary<string> {
  const name = p.name;
  if (RANGE_KEY.test(name)) {
    return fc.oneof(
      fc.integer({ min: 0, max: 5000 }).map(String),
      fc.integer({ min: 0, max: 500_000 }).map((c) => (c / 100).toFixed(2)),
      fc
        .date({ min: new Date('2000-01-01'), max: new Date('2099-01-01'), noInvalidDate: true })
        .map((d) => d.toISOString()),
    );
  }
  if (name === 'sort') return fc.constantFrom(...SORTS);
  if (name === 'with') return fc.constantFrom(...RELATIONS);
  if (BOOLEAN_NAMES.has(name)) return fc.constantFrom('true', 'false');
  const pool = name === 'id' ? undefined : poolFor(fx.pools, name);
  if (pool)
    return fc
      .uniqueArray(fc.constantFrom(...pool), { minLength: 1, maxLength: 3 })
      .map((ids) => ids.join(','));
  if (name === 'id' || name.endsWith('Id')) return fc.integer({ min: 1, max: 50 }).map(String);
  return validArb(p.schema, fx.pools, name).map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
}

function queryArb(op: Operation, fx: Fixtures): fc.Arbitrary<[string, string][]> {
  const params = op.parameters.filter((p) => p.in === 'query');
  if (params.length === 0) return fc.constant([]);
  return fc
    .tuple(
      ...params.map((p) =>
        p.required ? queryValueArb(p, fx) : fc.option(queryValueArb(p, fx), { freq: 3, nil: undefined }),
      ),
    )
    .map((values) =>
      values.flatMap((v, i): [string, string][] => (v === undefined ? [] : [[params[i].name, v]])),
    );
}

/** Every top-level property of the body, with its schema. */
function bodyProps(op: Operation): [string, JsonSchema][] {
  return Object.entries((op.body?.properties ?? {}) as Record<string, JsonSchema>);
}

export function mutationsFor(op: Operation): Mutation[] {
  const hasBody = op.body !== undefined;
  const props = bodyProps(op);
  const hasPath = op.parameters.some((p) => p.in === 'path');
  return MUTATIONS.filter((m) => {
    switch (m) {
      case 'missing-required':
        return ((op.body?.required ?? []) as string[]).length > 0;
      case 'wrong-type':
      case 'extra-property':
        return hasBody || op.parameters.some((p) => p.in === 'query');
      case 'boundary':
        return boundaryTargets(op).length > 0;
      case 'oversize-string':
      case 'nul-char':
        return props.some(([, s]) => typesOf(s).includes('string') || typesOf(s).length === 0);
      case 'oversize-body':
      case 'proto-key':
      case 'content-type':
      case 'malformed-json':
        return hasBody;
      case 'path-junk':
      case 'path-unknown-id':
        return hasPath;
      default:
        return true;
    }
  });
}

interface Target {
  where: 'body' | 'query';
  name: string;
  schema: JsonSchema;
}

function boundaryTargets(op: Operation): Target[] {
  const targets: Target[] = [];
  const bounded = (s: JsonSchema) =>
    ['minimum', 'maximum', 'minLength', 'maxLength', 'minItems', 'maxItems'].some(
      (k) => typeof s[k] === 'number',
    );
  for (const [name, schema] of bodyProps(op))
    if (bounded(schema)) targets.push({ where: 'body', name, schema });
  for (const p of op.parameters) {
    if (p.in === 'query' && bounded(p.schema))
      targets.push({ where: 'query', name: p.name, schema: p.schema });
  }
  return targets;
}

/** The values just inside and just outside a schema's bounds. */
function boundaryValues(schema: JsonSchema): unknown[] {
  const out: unknown[] = [];
  const n = (k: string) => (typeof schema[k] === 'number' ? (schema[k] as number) : undefined);
  const min = n('minimum');
  const max = n('maximum');
  if (min !== undefined) out.push(min - 1, min);
  if (max !== undefined) out.push(max, max + 1);
  const minLength = n('minLength');
  const maxLength = n('maxLength');
  if (minLength !== undefined && minLength > 0) out.push('a'.repeat(minLength - 1), 'a'.repeat(minLength));
  if (maxLength !== undefined) out.push('a'.repeat(maxLength), 'a'.repeat(maxLength + 1));
  const minItems = n('minItems');
  const maxItems = n('maxItems');
  if (minItems !== undefined && minItems > 0) out.push(Array(minItems - 1).fill(1));
  if (maxItems !== undefined) out.push(Array(maxItems + 1).fill(1));
  return out.length ? out : [null];
}

const WRONG_TYPES: unknown[] = [12345, 'abc', true, null, [], {}, [1, 2], '12abc', -0.5, { $gt: '' }];
const EXTRA_PROPS: Record<string, unknown>[] = [
  { isAdmin: true },
  { roles: [1] },
  { id: 1 },
  { loyaltyPoints: 999_999 },
  { passwordHash: 'x' },
  { usedCount: 0 },
  { customerId: 1 },
];
const CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/json; charset=utf-16',
  'application/jsonx',
  'application/vnd.api+json',
  '',
];
const MALFORMED = [
  '{"a":',
  '[]',
  'null',
  '',
  '"text"',
  '1e999999',
  '{"a":1,"a":2}',
  '\u0000',
  '{'.repeat(1000),
  '{"a":"\\ud800"}',
  '\ufeff{}',
];
const QUERY_JUNK: [string, string][][] = [
  [['limit', '-1']],
  [['limit', '1e3']],
  [['limit', 'abc']],
  [['limit', '1000000000']],
  [['limit', '100001']],
  [['page', '0']],
  [['page', '99999999999']],
  [
    ['limit', '1'],
    ['limit', '2'],
  ],
  [['limit[]', '1']],
  [['sort', '-']],
  [['sort', ';drop table product']],
  [['sort', 'price,price,price']],
  [['with', 'category.parent.parent.parent.parent.parent']],
  [['with', ',,,']],
  [['q', '\u0000']],
  [['q', "' or 1=1 --"]],
  [['q', '%_\\']],
  [['q', 'x'.repeat(5000)]],
  [['__proto__[polluted]', '1']],
  [['constructor', '1']],
  [['toString', '1']],
  [['hasOwnProperty', '1']],
];
const BRACKET_QUERIES: [string, string][][] = [
  [['price[gte]', 'x']],
  [['price[gte]', '1e309']],
  [['price[gte]', '-1']],
  [['price[lte]', 'NaN']],
  [['price[gt]', '99999999999999999999']],
  [['price[eq]', '1']],
  [['price[gte][lte]', '1']],
  [['createdAt[gte]', 'not-a-date']],
  [['createdAt[gte]', '2024-13-45T99:00:00Z']],
  [['stockQty[gt]', '99999999999999999999']],
  [['id', Array.from({ length: 200 }, (_, i) => i + 1).join(',')]],
  [['id', 'abc']],
  [['id', '1,,2']],
  [['categoryId', 'null']],
  [['active', 'maybe']],
  [['loyaltyPoints[gte]', '-99999999999']],
];
const PATH_JUNK = [
  '0',
  '-1',
  'abc',
  '2147483648',
  '99999999999999999999',
  '1.5',
  '1e3',
  '%00',
  '%20',
  'x'.repeat(199),
  'NaN',
];

function encodeQuery(pairs: [string, string][]): string {
  // Keys go raw so `price[gte]` arrives as the literal key a browser would send.
  return pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
}

function buildUrl(
  op: Operation,
  path: Record<string, string>,
  query: [string, string][],
  rawPath = false,
): string {
  const url = op.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    rawPath ? (path[name] ?? '1') : encodeURIComponent(path[name] ?? '1'),
  );
  return query.length ? `${url}?${encodeQuery(query)}` : url;
}

interface Draft {
  path: Record<string, string>;
  headers: Record<string, string>;
  query: [string, string][];
  body: unknown;
  caller: CallerKind;
}

function pick<T>(items: readonly T[], n: number): T {
  return items[n % items.length];
}

function withProp(body: unknown, name: string, value: unknown): unknown {
  const base = body && typeof body === 'object' && !Array.isArray(body) ? body : {};
  return { ...(base as Record<string, unknown>), [name]: value };
}

function mutate(op: Operation, draft: Draft, mutation: Mutation | 'valid', n: number): FuzzRequest {
  let { body, query } = draft;
  const headers: Record<string, string> = { ...draft.headers };
  let payload: string | undefined;
  let rawPath = false;
  const path = { ...draft.path };
  const props = bodyProps(op);
  const queryParams = op.parameters.filter((p) => p.in === 'query');
  switch (mutation) {
    case 'missing-required': {
      const required = (op.body?.required ?? []) as string[];
      const drop = pick(required, n);
      const { [drop]: _dropped, ...rest } = (body ?? {}) as Record<string, unknown>;
      body = rest;
      break;
    }
    case 'wrong-type': {
      const value = pick(WRONG_TYPES, n >> 4);
      if (props.length && (n % 2 === 0 || queryParams.length === 0))
        body = withProp(body, pick(props, n)[0], value);
      else if (queryParams.length) query = [...query, [pick(queryParams, n).name, JSON.stringify(value)]];
      else body = value;
      break;
    }
    case 'boundary': {
      const target = pick(boundaryTargets(op), n);
      const value = pick(boundaryValues(target.schema), n >> 4);
      if (target.where === 'body') body = withProp(body, target.name, value);
      else query = [...query.filter(([k]) => k !== target.name), [target.name, String(value)]];
      break;
    }
    case 'oversize-string': {
      const strings = props.filter(([, s]) => typesOf(s).includes('string') || typesOf(s).length === 0);
      body = withProp(body, pick(strings, n)[0], 'x'.repeat(pick([5_000, 70_000, 300_000], n >> 4)));
      break;
    }
    case 'nul-char': {
      // A NUL byte is valid JSON and valid UTF-8, but PostgreSQL text cannot hold it.
      const strings = props.filter(([, s]) => typesOf(s).includes('string'));
      if (strings.length) body = withProp(body, pick(strings, n)[0], 'nul\u0000byte');
      else query = [...query, ['q', 'nul\u0000byte']];
      break;
    }
    case 'oversize-body':
      payload = JSON.stringify(withProp(body, 'padding', 'x'.repeat(1_200_000)));
      break;
    case 'extra-property':
      if (props.length || queryParams.length === 0) body = { ...(body as object), ...pick(EXTRA_PROPS, n) };
      else query = [...query, ['isAdmin', 'true']];
      break;
    case 'proto-key': {
      const json = JSON.stringify(body ?? {});
      const poison =
        n % 2 ? '"__proto__":{"polluted":"yes"}' : '"constructor":{"prototype":{"polluted":"yes"}}';
      payload = json === '{}' ? `{${poison}}` : json.startsWith('{') ? `{${poison},${json.slice(1)}` : json;
      break;
    }
    case 'content-type': {
      const type = pick(CONTENT_TYPES, n);
      payload = type.startsWith('application/x-www') ? 'a=1&b=2' : JSON.stringify(body ?? {});
      headers['content-type'] = type;
      break;
    }
    case 'malformed-json':
      payload = pick(MALFORMED, n);
      break;
    case 'query-junk':
      query = [...query, ...pick(QUERY_JUNK, n)];
      break;
    case 'bracket-query':
      query = [...query, ...pick(BRACKET_QUERIES, n)];
      break;
    case 'path-junk': {
      const name = pick(
        op.parameters.filter((p) => p.in === 'path'),
        n,
      ).name;
      path[name] = pick(PATH_JUNK, n >> 4);
      rawPath = path[name].startsWith('%');
      break;
    }
    case 'path-unknown-id': {
      const p = pick(
        op.parameters.filter((q) => q.in === 'path'),
        n,
      );
      const numeric = typesOf(p.schema).includes('integer');
      path[p.name] = numeric
        ? String(pick([999_999, 2_147_483_647, 424_242], n >> 4))
        : `no_such_${n % 1000}`;
      break;
    }
    default:
      break;
  }
  if (payload === undefined && op.body !== undefined && body !== undefined) payload = JSON.stringify(body);
  if (payload !== undefined && !('content-type' in headers)) headers['content-type'] = 'application/json';
  if (headers['content-type'] === '') delete headers['content-type'];
  return {
    op,
    variant: mutation,
    caller: draft.caller,
    method: op.method,
    url: buildUrl(op, path, query, rawPath),
    headers,
    payload,
  };
}

/** Requests for one operation: about 40 % valid, the rest spread over its mutations. */
export function requestArb(op: Operation, fx: Fixtures): fc.Arbitrary<FuzzRequest> {
  const draft = fc.record({
    path: pathArb(op, fx),
    headers: headerArb(op, fx),
    query: queryArb(op, fx),
    body: op.body ? validArb(op.body, fx.pools) : fc.constant(undefined),
    caller: fc.constantFrom<CallerKind>('guest', 'customer', 'admin'),
  });
  const mutations = mutationsFor(op);
  const variant: fc.Arbitrary<Mutation | 'valid'> = mutations.length
    ? fc.oneof(
        { weight: 2, arbitrary: fc.constant('valid' as const) },
        { weight: 3, arbitrary: fc.constantFrom(...mutations) },
      )
    : fc.constant('valid' as const);
  return fc.tuple(draft, variant, fc.nat()).map(([d, m, n]) => mutate(op, d, m, n));
}
