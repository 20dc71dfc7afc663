import type { ErrorCodeDefinition } from './errors.ts';
import type { ApiHeader, ApiTag } from './openapi.ts';

// The document as clients and generators see it, finished from what the routes declared
// (src/http/openapi.ts): operationIds and tags come from the routes, tag descriptions and error
// codes from the modules through the app; headers and schema names are derived here.

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The member `key` of `parent` as an object, created empty when absent. */
function objectAt(parent: Json, key: string): Json {
  const value = parent[key];
  if (isRecord(value)) return value;
  const created: Json = {};
  parent[key] = created;
  return created;
}

function recordsOf(value: unknown): Json[] {
  return isRecord(value) ? Object.values(value).filter(isRecord) : [];
}

export interface DocumentDeclarations {
  /** The modules' tags, in the order the docs page lists them. */
  tags: readonly ApiTag[];
  /** Every error code the service answers, in the order the document lists them. */
  errorCodes: ReadonlyMap<string, ErrorCodeDefinition>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const GROUPS: ApiTag['group'][] = ['Storefront', 'Back office', 'Operations'];

/** Response headers any operation may send, declared once in components.headers. */
const COMMON_HEADERS: Record<string, ApiHeader> = {
  'X-Request-Id': {
    description: 'The request id, also in the logs; quote it when reporting a problem.',
    schema: { type: 'string' },
  },
  ETag: {
    description: 'Weak validator of a public catalog or content answer; send it in If-None-Match to get 304.',
    schema: { type: 'string' },
  },
  'Cache-Control': {
    description:
      'public, max-age=… for guest catalog and content reads; private, no-store for anything personal.',
    schema: { type: 'string' },
  },
  'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'string' } },
  'X-RateLimit-Limit': {
    description: 'Calls allowed in the window (throttled operations).',
    schema: { type: 'string' },
  },
  'X-RateLimit-Remaining': {
    description: 'Calls left in the window (throttled operations).',
    schema: { type: 'string' },
  },
  'X-RateLimit-Reset': {
    description: 'Seconds until the window resets (throttled operations).',
    schema: { type: 'string' },
  },
};
const THROTTLE_HEADERS = ['Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];

const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

/**
 * A name for an operation that declares none (every route of the service declares one; this
 * keeps ids unique and present for anything added without): the method's verb and the path's words.
 */
export function fallbackOperationId(method: string, path: string): string {
  const words = path.split('/').filter((s) => s && s !== 'rest' && !/^v\d+$/.test(s));
  const pascal = (s: string) =>
    s
      .split(/[^A-Za-z0-9]+/)
      .filter(Boolean)
      .map((w) => w[0].toUpperCase() + w.slice(1))
      .join('');
  const verb = { GET: 'get', POST: 'post', PUT: 'put', PATCH: 'update', DELETE: 'delete' }[method] ?? 'call';
  const statics = words.filter((w) => !w.startsWith('{')).map(pascal);
  const params = words.filter((w) => w.startsWith('{')).map((p) => `By${pascal(p)}`);
  return `${verb}${statics.join('')}${params.join('')}`;
}

function hasHeaderParameter(parameters: Json[], name: string): boolean {
  return parameters.some((p) => p.in === 'header' && String(p.name).toLowerCase() === name.toLowerCase());
}

/**
 * Declares the headers each answer can carry (the common ones, the route's own from
 * `x-response-headers`, the throttling ones on 429), the 304 of conditional reads, and the
 * request headers a route reads raw (`x-header-parameters`).
 */
function documentHeaders(op: Json, declared: Record<string, ApiHeader>): void {
  const conditional = op['x-conditional-read'] === true;
  const own: Record<string, ApiHeader> = isRecord(op['x-response-headers'])
    ? (op['x-response-headers'] as Record<string, ApiHeader>)
    : {};
  const extraParameters = Array.isArray(op['x-header-parameters']) ? op['x-header-parameters'] : [];
  for (const key of ['x-conditional-read', 'x-response-headers', 'x-header-parameters']) delete op[key];
  if (extraParameters.length) {
    const parameters = Array.isArray(op.parameters) ? op.parameters.filter(isRecord) : [];
    for (const parameter of extraParameters.filter(isRecord)) {
      if (!hasHeaderParameter(parameters, String(parameter.name))) parameters.push(parameter);
    }
    op.parameters = parameters;
  }
  Object.assign(declared, own);
  const responses = objectAt(op, 'responses');
  for (const [status, response] of Object.entries(responses)) {
    if (!isRecord(response)) continue;
    const headers: Json = { 'X-Request-Id': headerRef('X-Request-Id') };
    if (status.startsWith('2')) {
      headers['Cache-Control'] = headerRef('Cache-Control');
      if (conditional) headers.ETag = headerRef('ETag');
      for (const name of Object.keys(own)) headers[name] = headerRef(name);
    }
    if (status === '429') for (const name of THROTTLE_HEADERS) headers[name] = headerRef(name);
    response.headers = { ...(isRecord(response.headers) ? response.headers : {}), ...headers };
  }
  if (conditional && !responses['304']) {
    responses['304'] = {
      description:
        'Not modified: the If-None-Match sent matches the current ETag (guest reads only); no body.',
      headers: { ETag: headerRef('ETag'), 'X-Request-Id': headerRef('X-Request-Id') },
    };
  }
}

/** Each error answer says which codes its status can carry. */
function describeErrorCodes(op: Json, errorCodes: DocumentDeclarations['errorCodes']): void {
  for (const [status, response] of Object.entries(objectAt(op, 'responses'))) {
    if (!isRecord(response) || !isErrorEnvelope(response)) continue;
    const codes = [...errorCodes].filter(([, d]) => String(d.status) === status).map(([code]) => code);
    response.description = `Error envelope; error.code is one of: ${codes.join(', ')}`;
  }
}

function isErrorEnvelope(response: Json): boolean {
  const content = isRecord(response.content) ? response.content['application/json'] : undefined;
  return (
    isRecord(content) && isRecord(content.schema) && content.schema.$ref === '#/components/schemas/ErrorBody'
  );
}

/** The document's tags in the docs page's order: the declared ones, then any other by name. */
function documentTags(document: Json, declared: readonly ApiTag[]): void {
  const used = new Set<string>();
  for (const operations of recordsOf(document.paths)) {
    for (const op of recordsOf(operations)) {
      if (Array.isArray(op.tags)) for (const tag of op.tags) used.add(String(tag));
    }
  }
  const byName = new Map(declared.map((tag) => [tag.name, tag]));
  const known = declared.map((tag) => tag.name).filter((name) => used.has(name));
  const names = [...known, ...[...used].filter((name) => !byName.has(name)).sort()];
  document.tags = names.map((name) => ({
    name,
    description: byName.get(name)?.description ?? `Operations on ${name}.`,
  }));
  const groups = GROUPS.map((group) => ({
    name: group,
    tags: names.filter((name) => (byName.get(name)?.group ?? 'Back office') === group),
  }));
  document['x-tagGroups'] = groups.filter((g) => g.tags.length > 0);
}

/**
 * Finishes the generated document (swagger's transformObject): unique operationIds,
 * descriptions, headers, error codes, tags with descriptions and groups, and named schemas.
 */
export function finishDocument(document: Json, declarations: DocumentDeclarations): Json {
  const seen = new Set<string>();
  const declaredHeaders: Record<string, ApiHeader> = {};
  for (const [path, operations] of Object.entries(document.paths ?? {})) {
    if (!isRecord(operations)) continue;
    for (const method of METHODS) {
      const op = operations[method];
      if (!isRecord(op)) continue;
      let id =
        typeof op.operationId === 'string' ? op.operationId : fallbackOperationId(method.toUpperCase(), path);
      // Two routes that read alike still get distinct ids.
      for (let n = 2; seen.has(id); n++) id = `${id.replace(/\d+$/, '')}${n}`;
      seen.add(id);
      op.operationId = id;
      op.description ??= op.summary;
      // Routes outside /rest (health probes) take no token.
      op.security ??= [];
      documentHeaders(op, declaredHeaders);
      describeErrorCodes(op, declarations.errorCodes);
    }
  }
  const components = objectAt(document, 'components');
  components.headers = { ...objectAt(components, 'headers'), ...COMMON_HEADERS, ...declaredHeaders };
  nameSchemas(document);
  documentTags(document, declarations.tags);
  return document;
}

/** A PascalCase schema name for a resource's title (`cms/slider-group` → `SliderGroup`). */
function schemaNameOf(title: string): string {
  const entity = title.split('/').at(-1) ?? title;
  return entity
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0].toUpperCase() + word.slice(1))
    .join('');
}

/**
 * Names the schemas clients import: each resource's documented entity (the one answers hold in
 * `data`, titled `domain/entity`) under its PascalCase name, and the success body of an
 * operation that declares `x-body-name` under that name. Embedded relations stay inline: they are
 * the nested views of `with`.
 */
function nameSchemas(document: Json): void {
  const schemas = objectAt(objectAt(document, 'components'), 'schemas');
  const named = new Map<string, string>();
  const hoist = (schema: Json): Json => {
    if (typeof schema.title !== 'string' || !schema.title.includes('/')) return schema;
    const text = JSON.stringify(schema);
    let name = named.get(text);
    if (!name) {
      const base = schemaNameOf(schema.title);
      name = base;
      for (let n = 2; schemas[name]; n++) name = `${base}${n}`;
      schemas[name] = { ...schema, title: name };
      named.set(text, name);
    }
    return { $ref: `#/components/schemas/${name}` };
  };
  const nameBody = (name: string, schema: Json): Json => {
    const existing = schemas[name];
    // The same name for a different shape would mislead clients: such a body stays inline.
    if (existing && JSON.stringify(existing) !== JSON.stringify(schema)) return schema;
    schemas[name] = schema;
    return { $ref: `#/components/schemas/${name}` };
  };
  for (const operations of recordsOf(document.paths)) {
    for (const op of recordsOf(operations)) {
      const bodyName = typeof op['x-body-name'] === 'string' ? op['x-body-name'] : undefined;
      delete op['x-body-name'];
      for (const [status, response] of Object.entries(objectAt(op, 'responses'))) {
        if (!isRecord(response)) continue;
        for (const media of recordsOf(response.content)) {
          if (!isRecord(media.schema)) continue;
          if (bodyName && status.startsWith('2')) {
            media.schema = nameBody(bodyName, media.schema);
            continue;
          }
          const properties = media.schema.properties;
          const data = isRecord(properties) ? properties.data : undefined;
          if (!isRecord(properties) || !isRecord(data)) continue;
          if (data.type === 'array' && isRecord(data.items)) data.items = hoist(data.items);
          else properties.data = hoist(data);
        }
      }
    }
  }
}
