import { Type } from '@sinclair/typebox';
import type { RouteOptions } from 'fastify';
import { ERROR_STATUS, type ErrorBodyType } from './errors.ts';

/** Errors any operation can answer: bad input, a bad token, throttling, faults. */
const GENERIC_ERROR_STATUSES = [400, 401, 413, 415, 429, 500, 503];

function codesFor(status: number): string {
  return Object.entries(ERROR_STATUS)
    .filter(([, s]) => s === status)
    .map(([code]) => code)
    .join(', ');
}

export function errorResponse(status: number) {
  return Type.Unsafe<ErrorBodyType>({
    $ref: 'ErrorBody#',
    description: `Error envelope; error.code is one of: ${codesFor(status)}`,
  });
}

/** Adds the error envelope to every documented route for the generic statuses and any it lists. */
export function documentErrorResponses(route: RouteOptions): void {
  const schema = route.schema;
  if (!schema || schema.hide) return;
  const response = (schema.response ?? {}) as Record<string, unknown>;
  for (const status of GENERIC_ERROR_STATUSES) response[status] ??= errorResponse(status);
  schema.response = response;
}
