import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';

/**
 * Sends bytes whose headers were made once (a kept answer, a kept image), straight to the socket:
 * Fastify's send and the route's onSend hooks are skipped, so `headers` must hold everything those
 * would have set. The headers of this request (its id, the security and CORS headers), set by the
 * onRequest hooks, go with them; onResponse (the log line, the metrics) still runs.
 * `notModified`: the caller's If-None-Match matched, so 304 without the body.
 */
export function sendReady(
  reply: FastifyReply,
  body: Buffer,
  headers: Readonly<Record<string, string>>,
  notModified: boolean,
): void {
  reply.hijack();
  writeReady(reply.raw, reply.getHeaders() as OutgoingHttpHeaders, body, headers, notModified);
}

/**
 * The same without Fastify (a hit answered before it, src/resources/early-hits.ts): `own` holds
 * this request's headers and is completed with the ready ones; `Vary` names each header once.
 */
export function writeReady(
  response: ServerResponse,
  own: OutgoingHttpHeaders,
  body: Buffer,
  headers: Readonly<Record<string, string>>,
  notModified: boolean,
): void {
  for (const name in headers) {
    const value = headers[name] as string;
    own[name] = name === 'vary' ? mergeVary(own.vary, value) : value;
  }
  if (notModified) {
    own['content-type'] = undefined;
    response.writeHead(304, definedOnly(own)).end();
    return;
  }
  own['content-length'] = body.length;
  response.writeHead(200, own).end(body);
}

/** A Vary set by this request's onRequest hooks (CORS: Origin) and the ready one, each name once. */
function mergeVary(current: unknown, ready: string): string {
  if (current === undefined) return ready;
  const names = String(current);
  const lower = names.toLowerCase();
  const added = ready.split(', ').filter((name) => !lower.includes(name.toLowerCase()));
  return added.length === 0 ? names : `${names}, ${added.join(', ')}`;
}

function definedOnly(headers: OutgoingHttpHeaders): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const name in headers) if (headers[name] !== undefined) out[name] = headers[name];
  return out;
}
