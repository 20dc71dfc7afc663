import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { REQUEST_LINE, requestLine } from '../http/logging.ts';
import { type OwnHeaders, ownHeadersOf } from '../http/own-headers.ts';
import { requestIdFor } from '../http/request-id.ts';
import { writeReady } from '../http/send-ready.ts';
import { cacheKey, keptAnswer, notModified, type ResponseCache } from './response-cache.ts';

// A guest's hit answered before Fastify (docs/performance.md, "The shared cache: what a hit
// costs"): Fastify's request and reply objects, its routing and hooks cost a hit twice what
// writing the bytes costs. Only what is certainly the same answer is sent here; anything else
// goes to Fastify unchanged:
// - a GET without Authorization (the one header a caller is identified by: src/app.ts), so a
//   guest, whose answer is kept under `cacheKey`'s guest key, the same key Fastify's path looks up;
// - an entry `keptAnswer` finds still right (the same check as Fastify's path), whose route counts
//   no requests and whose answer had no header but the request's own and the kept ones
//   (response-cache.ts `answeredAsEarly`);
// - not while the service shuts down (Fastify answers 503 and closes the connection).
// It is sent with what Fastify's hit has: the request id (`requestIdFor`, Fastify's `genReqId`),
// the security and CORS headers (`ownHeadersOf`), the kept headers with Vary merged, 304 on a
// matching If-None-Match (`writeReady`, as `sendReady`), and it is logged and measured as any
// request: the same log line (`requestLine`) and the same histogram, labelled with its route.

/** What the request histogram records of an answer (the metrics module's, passed in by the app). */
export type ObserveRequest = (method: string, route: string, status: number, seconds: number) => void;

export interface EarlyHitOptions {
  own: OwnHeaders;
  log: FastifyBaseLogger;
  observe: ObserveRequest | undefined;
  /** True once the service is shutting down. */
  closing(): boolean;
}

/**
 * Puts the early answer in front of Fastify's request listener on `server` (the server Fastify
 * made, with the timeouts it set from the options; `serverFactory` would leave them unset).
 */
export function answerHitsEarly(server: Server, cache: ResponseCache, options: EarlyHitOptions): void {
  const listeners = server.listeners('request') as RequestListener[];
  const fastify = listeners[0];
  if (listeners.length !== 1 || fastify === undefined) {
    throw new Error(`expected Fastify's one request listener, found ${listeners.length}`);
  }
  server.removeListener('request', fastify);
  const answered = earlyAnswer(cache, options);
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (!answered(request, response)) fastify.call(server, request, response);
  });
}

/** Sends a guest's kept answer and says so, or says no and sends nothing. */
function earlyAnswer(cache: ResponseCache, options: EarlyHitOptions) {
  const { answers, versions } = cache;
  const { own, log, observe, closing } = options;
  return (request: IncomingMessage, response: ServerResponse): boolean => {
    const started = performance.now();
    const headers = request.headers;
    if (request.method !== 'GET' || headers.authorization !== undefined || !versions.live || closing()) {
      return false;
    }
    const entry = keptAnswer(cache, cacheKey(request, 'guest'));
    if (entry === undefined || !entry.early) return false;
    answers.hits++;
    answers.earlyHits++;
    const id = requestIdFor(request);
    const unchanged = notModified(entry, headers['if-none-match']);
    writeReady(response, ownHeadersOf(own, id, headers.origin), entry.body, entry.headers, unchanged);
    const status = unchanged ? 304 : 200;
    const ms = performance.now() - started;
    log.info({ reqId: id, ...requestLine('GET', request.url ?? '', status, ms) }, REQUEST_LINE);
    observe?.('GET', entry.route, status, ms / 1000);
    return true;
  };
}
