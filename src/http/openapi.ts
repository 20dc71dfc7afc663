import { Type } from '@sinclair/typebox';
import type { RouteOptions } from 'fastify';
import type { ErrorBodyType } from './errors.ts';

// What a route declares for the OpenAPI document, on its own schema: `operationId`, `tags`,
// `summary` (swagger's keys) and the `x-` keys below, which finishDocument
// (src/http/openapi-document.ts) reads and removes. No route name or tag is listed here.

/** Marks an onSend hook that answers ETags and 304s (src/resources/caching.ts), for the document. */
export const SENDS_ETAG = Symbol('sends ETag');

/** A tag of the document: the group the docs page lists it under and what its operations do. */
export interface ApiTag {
  name: string;
  group: 'Storefront' | 'Back office' | 'Operations';
  description: string;
}

/** A response header as components.headers declares it. */
export interface ApiHeader {
  description: string;
  schema: { type: 'string' };
}

/** A request header the handler reads itself, documented without being validated. */
export interface ApiHeaderParameter {
  in: 'header';
  name: string;
  required: false;
  description: string;
  schema: { type: 'string'; maxLength: number };
}

declare module 'fastify' {
  interface FastifySchema {
    /** The success body is listed in components.schemas under this name (clients import it). */
    'x-body-name'?: string;
    /** Headers the success answers carry besides the common ones, each declared once by name. */
    'x-response-headers'?: Record<string, ApiHeader>;
    /** Request headers the handler reads raw: documented only. */
    'x-header-parameters'?: ApiHeaderParameter[];
    /** Set by documentConditionalReads: the answers carry an ETag and a 304 is possible. */
    'x-conditional-read'?: boolean;
  }
}

/** Errors any operation can answer: bad input, a bad token, throttling, faults. */
const GENERIC_ERROR_STATUSES = [400, 401, 413, 415, 429, 500, 503];

/** The error envelope for `status`; the document lists the codes of that status (finishDocument). */
export function errorResponse(_status: number) {
  return Type.Unsafe<ErrorBodyType>({ $ref: 'ErrorBody#', description: 'Error envelope' });
}

/**
 * Marks, for the document, a GET route whose caching hook answers an ETag and 304 to a matching
 * If-None-Match (public catalog and content reads, the storefront settings).
 */
export function documentConditionalReads(route: RouteOptions): void {
  const { schema } = route;
  if (!schema || schema.hide || ![route.method].flat().includes('GET')) return;
  const hooks: unknown[] = [route.onSend].flat();
  if (hooks.some(sendsEtag)) schema['x-conditional-read'] = true;
}

function sendsEtag(hook: unknown): boolean {
  return typeof hook === 'function' && SENDS_ETAG in hook && hook[SENDS_ETAG] === true;
}

/** Adds the error envelope to every documented route for the generic statuses and any it lists. */
export function documentErrorResponses(route: RouteOptions): void {
  const { schema } = route;
  if (!schema || schema.hide) return;
  const listed = schema.response;
  const response: Record<string, unknown> =
    typeof listed === 'object' && listed !== null ? { ...listed } : {};
  for (const status of GENERIC_ERROR_STATUSES) response[status] ??= errorResponse(status);
  schema.response = response;
}
