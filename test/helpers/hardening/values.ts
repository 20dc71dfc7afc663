import fc from 'fast-check';
import type { JsonSchema } from './openapi.ts';

// fast-check arbitraries of VALID values built from JSON schemas (the OpenAPI document's),
// with known ids for properties that name another entity, so that valid writes can succeed.

/** Known ids per property name (categoryId, productIds, groupId…), filled by the fixtures. */
export type Pools = Map<string, number[]>;

const POOL_ALIASES: Record<string, string> = {
  parentId: 'categoryId',
  productIds: 'productId',
  groupId: 'sliderGroupId',
};

export function poolFor(pools: Pools, name: string | undefined): number[] | undefined {
  if (!name) return undefined;
  const key = POOL_ALIASES[name] ?? name;
  const ids = pools.get(key);
  return ids && ids.length > 0 ? ids : undefined;
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** The JSON types a schema allows; an untyped schema allows anything. */
export function typesOf(schema: JsonSchema): string[] {
  const t = schema.type;
  if (Array.isArray(t)) return t as string[];
  if (typeof t === 'string') return [t];
  if (schema.properties) return ['object'];
  return [];
}

function integerArb(schema: JsonSchema, pool?: number[]): fc.Arbitrary<number> {
  const exMin = num(schema.exclusiveMinimum);
  const exMax = num(schema.exclusiveMaximum);
  const min = exMin !== undefined ? exMin + 1 : (num(schema.minimum) ?? -1000);
  const max = exMax !== undefined ? exMax - 1 : (num(schema.maximum) ?? min + 100_000);
  const inRange = fc.integer({ min, max: Math.min(max, min + 1000) });
  const edges = fc.constantFrom(min, max);
  if (pool) {
    const valid = pool.filter((id) => id >= min && id <= max);
    if (valid.length) return fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...valid) }, inRange);
  }
  return fc.oneof({ weight: 4, arbitrary: inRange }, edges);
}

/** Numbers as money: whole cents, so exact values survive the integer-cent store. */
function numberArb(schema: JsonSchema): fc.Arbitrary<number> {
  const min =
    num(schema.minimum) ??
    (num(schema.exclusiveMinimum) !== undefined ? num(schema.exclusiveMinimum)! + 0.01 : -1000);
  const max =
    num(schema.maximum) ??
    (num(schema.exclusiveMaximum) !== undefined ? num(schema.exclusiveMaximum)! - 0.01 : min + 10_000);
  const lo = Math.ceil(min * 100);
  const hi = Math.floor(Math.min(max, min + 100_000) * 100);
  return fc.oneof(
    { weight: 4, arbitrary: fc.integer({ min: lo, max: hi }).map((c) => c / 100) },
    fc.constantFrom(min, max),
  );
}

function lengthOk(s: string, schema: JsonSchema): boolean {
  const n = [...s].length;
  return n >= (num(schema.minLength) ?? 0) && n <= (num(schema.maxLength) ?? Number.MAX_SAFE_INTEGER);
}

const token = fc.stringMatching(/^[a-z0-9]{8,12}$/);

function stringArb(schema: JsonSchema): fc.Arbitrary<string> {
  const format = schema.format;
  if (format === 'email') return token.map((t) => `fz-${t}@example.com`);
  // A web address (src/http/web-url.ts) is told by its pattern: it has no format.
  const webUrl = typeof schema.pattern === 'string' && /^\^\(?https\?:\/\//.test(schema.pattern);
  if (format === 'uri' || format === 'url' || webUrl)
    return token.map((t) => `https://cdn.example.com/${t}.jpg`);
  if (format === 'date-time') {
    return fc
      .date({
        min: new Date('2000-01-01T00:00:00Z'),
        max: new Date('2099-12-31T00:00:00Z'),
        noInvalidDate: true,
      })
      .map((d) => d.toISOString());
  }
  if (format === 'date') {
    return fc
      .date({
        min: new Date('2000-01-01T00:00:00Z'),
        max: new Date('2099-12-31T00:00:00Z'),
        noInvalidDate: true,
      })
      .map((d) => d.toISOString().slice(0, 10));
  }
  const minLength = num(schema.minLength) ?? 0;
  const maxLength = Math.min(num(schema.maxLength) ?? 24, minLength + 24);
  if (typeof schema.pattern === 'string') {
    const re = new RegExp(schema.pattern);
    return fc
      .stringMatching(re)
      .map((s) => (lengthOk(s, schema) ? s : s.slice(0, num(schema.maxLength) ?? s.length)))
      .filter((s) => lengthOk(s, schema) && re.test(s));
  }
  return fc
    .oneof(
      { weight: 3, arbitrary: fc.string({ minLength, maxLength }) },
      fc.string({ minLength, maxLength, unit: 'grapheme' }),
    )
    .filter((s) => lengthOk(s, schema));
}

function objectArb(schema: JsonSchema, pools: Pools): fc.Arbitrary<Record<string, unknown>> {
  const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, prop] of Object.entries(props)) model[name] = validArb(prop, pools, name);
  const minProps = num(schema.minProperties) ?? 0;
  let arb: fc.Arbitrary<Record<string, unknown>> = fc.record(model, { requiredKeys: [...required] });
  if (Object.keys(props).length === 0 && typeof schema.additionalProperties === 'object') {
    arb = fc.dictionary(
      fc.stringMatching(/^[a-z]{1,8}$/),
      validArb(schema.additionalProperties as JsonSchema, pools),
      {
        maxKeys: 3,
      },
    );
  }
  return minProps > 0 ? arb.filter((o) => Object.keys(o).length >= minProps) : arb;
}

/** A value the schema accepts (to the extent the schema says; business rules may still refuse). */
export function validArb(schema: JsonSchema, pools: Pools, name?: string): fc.Arbitrary<unknown> {
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  for (const key of ['anyOf', 'oneOf'] as const) {
    const alts = schema[key];
    if (Array.isArray(alts) && alts.length)
      return fc.oneof(...(alts as JsonSchema[]).map((a) => validArb(a, pools, name)));
  }
  if (Array.isArray(schema.allOf) && schema.allOf.length)
    return validArb(schema.allOf[0] as JsonSchema, pools, name);
  const types = typesOf(schema);
  if (types.length === 0) return fc.jsonValue({ maxDepth: 2 });
  const arbs = types.map((t) => typedArb(t, schema, pools, name));
  if (types.includes('null') && arbs.length > 1) {
    return fc.oneof(...arbs.map((arbitrary, i) => ({ weight: types[i] === 'null' ? 1 : 4, arbitrary })));
  }
  return arbs.length === 1 ? arbs[0] : fc.oneof(...arbs);
}

function typedArb(type: string, schema: JsonSchema, pools: Pools, name?: string): fc.Arbitrary<unknown> {
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return integerArb(schema, poolFor(pools, name));
    case 'number':
      return numberArb(schema);
    case 'string':
      return stringArb(schema);
    case 'array': {
      const items = (schema.items ?? {}) as JsonSchema;
      const minLength = num(schema.minItems) ?? 0;
      const maxLength = Math.min(num(schema.maxItems) ?? 3, minLength + 3);
      const item = validArb(items, pools, name);
      return schema.uniqueItems
        ? fc.uniqueArray(item, { minLength, maxLength, selector: (v) => JSON.stringify(v) })
        : fc.array(item, { minLength, maxLength });
    }
    case 'object':
      return objectArb(schema, pools);
    default:
      return fc.jsonValue({ maxDepth: 1 });
  }
}
