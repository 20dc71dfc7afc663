import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { NO_STORE } from '../http/no-store.ts';
import { SENDS_ETAG } from '../http/openapi.ts';
import { utf8Bytes } from '../http/utf8.ts';

// HTTP caching of reads, in one place (docs/resources.md): guests' catalog and CMS answers are
// public for 60 s; feature flags and storefront config are always revalidated (no-cache) so
// they stay live; anything answered to a token is private and never stored. Every answer
// varies on Authorization. A matching If-None-Match answers 304 without a body.

export type CachePolicy = 'public' | 'revalidate' | 'private';

const CACHE_CONTROL: Record<CachePolicy, string> = {
  public: 'public, max-age=60',
  revalidate: 'no-cache',
  private: NO_STORE,
};

/** Weak comparison of an If-None-Match list with our (weak) ETag. */
export function matches(ifNoneMatch: string, etag: string): boolean {
  if (ifNoneMatch.trim() === '*') return true;
  const opaque = etag.slice(2);
  return ifNoneMatch.split(',').some((tag) => {
    const t = tag.trim();
    return (t.startsWith('W/') ? t.slice(2) : t) === opaque;
  });
}

/** The opaque part of an answer's ETag: its locale (a Greek answer never revalidates an English one) and bytes. */
function etagOf(served: string | undefined, body: Buffer): string {
  const digest = createHash('sha1');
  if (served) digest.update(`${served}\n`);
  return digest.update(body).digest('base64url');
}

function addVary(reply: FastifyReply, header: string): void {
  const vary = reply.getHeader('vary');
  if (vary === undefined) reply.header('vary', header);
  else if (!String(vary).toLowerCase().includes(header.toLowerCase()))
    reply.header('vary', `${String(vary)}, ${header}`);
}

/**
 * An onSend hook applying `policy` to the route's successful GET answers; `languages`: the answers
 * are in the locale the request settled on (Content-Language, Vary: Accept-Language, an ETag per
 * locale; docs/translations.md).
 */
export function cachingHook(policy: CachePolicy, languages = false) {
  const hook = async (request: FastifyRequest, reply: FastifyReply, sent: unknown) => {
    // Encoded once: the ETag, the Content-Length and the socket read these bytes.
    const payload = typeof sent === 'string' ? utf8Bytes(sent) : sent;
    addVary(reply, 'Authorization');
    const served = languages ? request.locale.served : undefined;
    if (languages) addVary(reply, 'Accept-Language');
    if (served) reply.header('content-language', served);
    const isRead = request.method === 'GET' || request.method === 'HEAD';
    if (request.headers.authorization !== undefined || policy === 'private' || !isRead) {
      reply.header('cache-control', CACHE_CONTROL.private);
      return payload;
    }
    if (reply.statusCode !== 200) return payload;
    // An answer from the response cache (response-cache.ts) comes with the ETag it was sent with.
    let etag = reply.getHeader('etag');
    if (typeof etag !== 'string') {
      if (!Buffer.isBuffer(payload)) return payload;
      etag = `W/"${etagOf(served, payload)}"`;
      reply.header('etag', etag);
    }
    reply.header('cache-control', CACHE_CONTROL[policy]);
    const ifNoneMatch = request.headers['if-none-match'];
    if (typeof ifNoneMatch === 'string' && matches(ifNoneMatch, etag)) {
      reply.code(304);
      reply.removeHeader('content-type');
      reply.removeHeader('content-length');
      return null;
    }
    return payload;
  };
  return Object.assign(hook, { [SENDS_ETAG]: policy !== 'private' });
}
