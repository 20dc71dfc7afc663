import type { OutgoingHttpHeaders } from 'node:http';
import type { CorsHeaders } from './cors.ts';

/**
 * The headers the app's onRequest hooks give every API answer, whatever the route: helmet's and
 * the API's CSP (`apiSecurityHeaders`, set with the request id by src/app.ts) and CORS for the
 * request's Origin (@fastify/cors, `corsHeaders`). A hit answered before Fastify
 * (src/resources/early-hits.ts) is sent with these, made by the same functions.
 */
export interface OwnHeaders {
  security: Readonly<Record<string, string>>;
  cors: CorsHeaders;
}

/** This request's own headers: a new object, to be completed with the answer's. */
export function ownHeadersOf(
  own: OwnHeaders,
  requestId: string,
  origin: string | undefined,
): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = { 'x-request-id': requestId };
  Object.assign(headers, own.security, own.cors(origin));
  return headers;
}

/**
 * Whether an answer's headers (`sent`, as its onSend hooks leave them) are exactly the request's
 * own ones and those named in `answers` (set by the route, kept with the bytes): then nothing but
 * the request id tells its hit sent by Fastify from one sent before it.
 */
export function onlyOwnHeaders(
  sent: Readonly<Record<string, unknown>>,
  own: OwnHeaders,
  origin: string | undefined,
  answers: readonly string[],
): boolean {
  const expected = ownHeadersOf(own, String(sent['x-request-id']), origin);
  const same = (name: string) => answers.includes(name) || String(sent[name]) === String(expected[name]);
  return Object.keys(sent).every(same) && Object.keys(expected).every(same);
}
