import type { FastifyCorsOptions } from '@fastify/cors';
import type { Config } from '../config.ts';

// Cross-origin reads, decided from `cors.origins` in one place: the options @fastify/cors is
// registered with (its onRequest hook, and the preflight answers), and the headers that hook puts
// on a GET answer, for the hits answered before Fastify (src/resources/early-hits.ts).

const EXPOSED_HEADERS = ['X-Cart-Token', 'X-Request-Id', 'Retry-After'];

/** @fastify/cors's options: the configured origins, or none (no CORS headers at all). */
export function corsOptions(config: Config): FastifyCorsOptions {
  return {
    origin: config.cors.origins.length ? config.cors.origins : false,
    exposedHeaders: EXPOSED_HEADERS,
    allowedHeaders: [
      'Authorization',
      'Content-Type',
      'X-Cart-Token',
      'X-Device-Token',
      'X-Request-Id',
      'Idempotency-Key',
      'If-None-Match',
    ],
    maxAge: 600,
  };
}

export type CorsHeaders = (origin: string | undefined) => Readonly<Record<string, string>>;

/**
 * The headers @fastify/cors's hook sets on a request that is not a preflight, for the request's
 * Origin, with the options of `corsOptions` (a list of exact origins, `*` among them, or false):
 * no list, nothing; a list with `*`, any origin allowed; otherwise `Vary: Origin` on every answer
 * and the Origin echoed when listed. The exposed headers go on every answer of a list.
 * test/resources/early-hits.test.ts compares the two on the same URL.
 */
export function corsHeaders(config: Config): CorsHeaders {
  const origins = config.cors.origins;
  const expose = EXPOSED_HEADERS.join(', ');
  if (origins.length === 0) return () => ({});
  if (origins.includes('*')) {
    const anyOrigin = { 'access-control-allow-origin': '*', 'access-control-expose-headers': expose };
    return () => anyOrigin;
  }
  const withoutOrigin = { vary: 'Origin', 'access-control-expose-headers': expose };
  const allowed = new Map(
    origins.map((origin) => [origin, { ...withoutOrigin, 'access-control-allow-origin': origin }]),
  );
  return (origin) => (origin === undefined ? withoutOrigin : (allowed.get(origin) ?? withoutOrigin));
}
