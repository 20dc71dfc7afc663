import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { App } from '../../../src/app.ts';

// The OpenAPI document as the fuzzer and the sweeps read it: operations with their parameters,
// body and documented responses, every `$ref` resolved, and an Ajv validator per response.

export type JsonSchema = { [key: string]: unknown };

export interface Parameter {
  in: 'path' | 'query' | 'header' | 'cookie';
  name: string;
  required: boolean;
  schema: JsonSchema;
}

export interface Operation {
  method: string;
  /** OpenAPI path, e.g. /rest/product/product/{id}. */
  path: string;
  parameters: Parameter[];
  /** The application/json body schema, when the operation takes one. */
  body?: JsonSchema;
  bodyRequired: boolean;
  /** Documented statuses → JSON schema of the answer (undefined when none is given). */
  responses: Map<string, JsonSchema | undefined>;
  /** Documented statuses → the media types of the answer (application/json, text/csv, …). */
  mediaTypes: Map<string, string[]>;
  secured: boolean;
}

interface RawOperation {
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, { content?: Record<string, { schema?: JsonSchema }> }>;
  security?: unknown[];
}

export interface OpenApiDoc {
  openapi: string;
  paths: Record<string, Record<string, RawOperation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

export async function fetchOpenApi(app: App): Promise<OpenApiDoc> {
  const res = await app.inject({ method: 'GET', url: '/openapi.json' });
  if (res.statusCode !== 200) throw new Error(`/openapi.json answered ${res.statusCode}`);
  return res.json() as OpenApiDoc;
}

/** Replaces every `#/components/schemas/X` reference with the schema itself (no cycles here). */
export function deref(value: unknown, doc: OpenApiDoc, depth = 0): unknown {
  if (depth > 40) throw new Error('schema nesting too deep (a $ref cycle?)');
  if (Array.isArray(value)) return value.map((v) => deref(v, doc, depth + 1));
  if (value === null || typeof value !== 'object') return value;
  const obj = value as JsonSchema;
  if (typeof obj.$ref === 'string') {
    const name = /^#\/components\/schemas\/(.+)$/.exec(obj.$ref)?.[1];
    const target = name ? doc.components?.schemas?.[decodeURIComponent(name)] : undefined;
    if (!target) throw new Error(`unresolved $ref ${obj.$ref}`);
    const { $ref: _ref, ...rest } = obj;
    return {
      ...(deref(target, doc, depth + 1) as JsonSchema),
      ...(deref(rest, doc, depth + 1) as JsonSchema),
    };
  }
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(obj)) out[k] = deref(v, doc, depth + 1);
  return out;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

export function operationsOf(doc: OpenApiDoc): Operation[] {
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const raw = item[method];
      if (!raw) continue;
      const responses = new Map<string, JsonSchema | undefined>();
      const mediaTypes = new Map<string, string[]>();
      for (const [status, res] of Object.entries(raw.responses ?? {})) {
        const schema = res.content?.['application/json']?.schema;
        responses.set(status, schema ? (deref(schema, doc) as JsonSchema) : undefined);
        mediaTypes.set(status, Object.keys(res.content ?? {}));
      }
      const body = raw.requestBody?.content?.['application/json']?.schema;
      ops.push({
        method: method.toUpperCase(),
        path,
        mediaTypes,
        parameters: (raw.parameters ?? []).map((p) => ({
          ...p,
          schema: deref(p.schema ?? {}, doc) as JsonSchema,
        })),
        body: body ? (deref(body, doc) as JsonSchema) : undefined,
        bodyRequired: raw.requestBody?.required ?? false,
        responses,
        secured: Array.isArray(raw.security) && raw.security.length > 0,
      });
    }
  }
  return ops;
}

export function operationKey(op: { method: string; path: string }): string {
  return `${op.method} ${op.path}`;
}

// ajv-formats is CommonJS; its default export arrives wrapped under NodeNext resolution.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv2020,
) => Ajv2020;

/** Compiles each documented response schema once; `check` answers the first error or null. */
export class ResponseValidator {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
  private readonly compiled = new Map<JsonSchema, ValidateFunction>();

  constructor() {
    addFormats(this.ajv);
  }

  check(schema: JsonSchema, body: unknown): string | null {
    let validate = this.compiled.get(schema);
    if (!validate) {
      validate = this.ajv.compile(schema);
      this.compiled.set(schema, validate);
    }
    if (validate(body)) return null;
    const e = validate.errors?.[0];
    return e ? `${e.instancePath || '(root)'} ${e.message} ${JSON.stringify(e.params)}` : 'invalid';
  }
}
