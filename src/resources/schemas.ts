import { type TObject, type TSchema, Type } from '@sinclair/typebox';
import { INT32_MAX } from './fields.ts';
import { PageQuery } from './pagination.ts';
import { canRead, type FieldInfo, RANGE_OPS, type Resource, type Scope } from './types.ts';

// Every schema of a resource comes from its field table: the query string, the write bodies
// and one response schema per scope. The response schema is the leak guard: the serializer of
// a guest's answer simply has no property for costPrice, whatever a row might hold.

/** Deepest `with` nesting served (category.parent.parent). */
export const MAX_RELATION_DEPTH = 3;
/**
 * A record id in a path or a body: an int4 column's positive range. In a path it must be written
 * in decimal digits (src/http/validators.ts): `0x10`, `1e2`, `1.0`, `+1` and ` 1` are 400.
 */
export const Id = Type.Integer({ minimum: 1, maximum: INT32_MAX, description: 'Positive integer id' });
export const IdParams = Type.Object({ id: Id });

/** `?locale=`: one of the shop's locales (docs/translations.md); a region is ignored (el-GR reads el). */
const LocaleParam = Type.String({
  maxLength: 35,
  pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8}){0,3}$',
  description:
    'Locale of the translatable fields (one of the setting locales; 400 otherwise); without it Accept-Language, else the default locale',
});

function listControls(withPaging: boolean): Record<string, TSchema> {
  const controls: Record<string, TSchema> = {
    sort: Type.Optional(
      Type.String({
        maxLength: 200,
        pattern: '^-?[A-Za-z][A-Za-z0-9]{0,63}(,-?[A-Za-z][A-Za-z0-9]{0,63}){0,9}$',
        description: 'Comma-separated fields, - for descending: -price,name',
      }),
    ),
    q: Type.Optional(Type.String({ maxLength: 200, description: 'Case-insensitive text search' })),
    with: Type.Optional(
      Type.String({
        maxLength: 300,
        pattern: '^[A-Za-z0-9.,]*$',
        description: 'Relations to embed, dot for nesting: category,category.parent',
      }),
    ),
  };
  if (!withPaging) return controls;
  return {
    ...PageQuery,
    ...controls,
  };
}

/** The query string of list (and, without paging, item) reads; undeclared parameters are ignored. */
export function querySchema(resource: Resource, withPaging: boolean): TObject {
  const props: Record<string, TSchema> = {
    ...listControls(withPaging),
    ...(withPaging ? resource.def.listVariant?.params : {}),
  };
  if (resource.def.translations) props.locale = Type.Optional(LocaleParam);
  for (const f of resource.fields) {
    if (!f.filter) continue;
    const who = f.read === 'public' ? '' : ` (${f.read} callers)`;
    // `option.<Name>`: any name, so no property of its own (documented on the list operation).
    if (f.prefixed) continue;
    if (f.filter !== 'range') {
      const what = f.filterOnly && f.description ? `${f.description}; ` : '';
      props[f.name] = Type.Optional(
        Type.String({ maxLength: 2000, description: `${what}Equals; a,b for any of${who}` }),
      );
    }
    if (f.filter !== 'eq') {
      for (const op of RANGE_OPS) {
        props[`${f.name}[${op}]`] = Type.Optional(Type.String({ maxLength: 40, description: `${op}${who}` }));
      }
    }
  }
  return Type.Object(props);
}

/** Adds null to a response type; a type array keeps fast-json-stringify on its fast path. */
function nullable(schema: TSchema): TSchema {
  if (schema.type === undefined) return schema;
  const copy: Record<string, unknown> = { ...schema, type: [schema.type, 'null'].flat() };
  if (Array.isArray(schema.enum)) copy.enum = [...schema.enum, null];
  return Type.Unsafe(copy);
}

function fieldSchema(f: FieldInfo, annotate: boolean): TSchema {
  const base = f.nullable ? nullable(f.codec.output) : f.codec.output;
  if (!annotate) return base;
  const scope = f.onlyScope ? `${f.onlyScope} only` : f.read === 'public' ? '' : `${f.read} and up`;
  const text = [f.description, scope && `Visible to: ${scope}.`].filter(Boolean).join(' ');
  return text ? { ...base, description: text } : base;
}

/** True when callers of this scope may embed the relation's target at all. */
export function relationAllowed(resource: Resource, relation: string, scope: Scope): boolean {
  const rel = resource.def.relations?.[relation];
  if (!rel || !canRead(scope, rel.read)) return false;
  const target = rel.target().def.read.access;
  return target === 'public' || scope === 'backend' || (target === 'owner' && scope === 'customer');
}

const itemSchemas = new WeakMap<Resource, Map<string, TObject>>();
/** The scopes that may read a resource at all. */
const READERS: Record<Resource['def']['read']['access'], readonly Scope[]> = {
  public: ['public', 'customer', 'backend'],
  owner: ['customer', 'backend'],
  backend: ['backend'],
};

/** One entity as a caller of `scope` sees it, with the relations it may embed (nested to `depth`). */
export function itemSchema(
  resource: Resource,
  scope: Scope,
  depth = MAX_RELATION_DEPTH,
  annotate = false,
): TObject {
  let cache = itemSchemas.get(resource);
  if (!cache) {
    cache = new Map();
    itemSchemas.set(resource, cache);
  }
  const key = `${scope}:${depth}:${annotate}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const props: Record<string, TSchema> = {};
  // The documented schema (annotate) stands for every scope that reads the resource: a field
  // only some of them read is optional there, so each caller's answer matches the document.
  const readers = annotate ? READERS[resource.def.read.access] : [scope];
  for (const f of resource.fields) {
    const readBy = readers.filter((s) => resource.readable[s].includes(f));
    if (readBy.length === 0) continue;
    const schema = fieldSchema(f, annotate);
    props[f.name] = readBy.length === readers.length ? schema : Type.Optional(schema);
  }
  if (depth > 0) {
    for (const [name, rel] of Object.entries(resource.def.relations ?? {})) {
      if (!relationAllowed(resource, name, scope)) continue;
      const target = itemSchema(rel.target(), scope, depth - 1, annotate);
      const schema = rel.kind === 'one' ? nullable(target) : Type.Array(target);
      props[name] = Type.Optional({ ...schema, description: `Embedded with with=${name}` });
    }
  }
  const schema = Type.Object(props, {
    additionalProperties: false,
    // The document names the schema after the part behind the slash (src/http/openapi-document.ts).
    title: annotate ? `${resource.def.domain}/${resource.def.schemaName ?? resource.def.entity}` : undefined,
  });
  cache.set(key, schema);
  return schema;
}

function writable(resource: Resource, op: 'create' | 'update'): FieldInfo[] {
  return resource.fields.filter((f) => (op === 'create' ? f.create !== undefined : f.update));
}

/** The create body: writable fields only, unknown or read-only ones refused (no mass assignment). */
export function createBody(resource: Resource): TObject {
  const props: Record<string, TSchema> = {};
  for (const f of writable(resource, 'create')) {
    const schema = fieldSchema({ ...f, codec: { ...f.codec, output: f.codec.input }, nullable: false }, true);
    // Owner fields are required of admins only; a customer's own id comes from the token.
    const required = f.create === 'required' && !(resource.ownerField === f && resource.def.write?.owner);
    props[f.name] = required ? schema : Type.Optional(schema);
  }
  for (const [name, schema] of Object.entries(resource.def.createExtras?.() ?? {})) {
    props[name] = Type.Optional(schema);
  }
  return Type.Object(props, { additionalProperties: false });
}

export function updateBody(resource: Resource): TObject {
  const props: Record<string, TSchema> = {};
  for (const f of writable(resource, 'update')) {
    props[f.name] = Type.Optional(
      fieldSchema({ ...f, codec: { ...f.codec, output: f.codec.input }, nullable: false }, true),
    );
  }
  return Type.Object(props, { additionalProperties: false, minProperties: 1 });
}
