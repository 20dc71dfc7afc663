import type { IncomingHttpHeaders } from 'node:http';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
  onRequestHookHandler,
  onSendHookHandler,
} from 'fastify';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { onlyOwnHeaders, type OwnHeaders } from '../http/own-headers.ts';
import { sendReady } from '../http/send-ready.ts';
import { utf8Bytes } from '../http/utf8.ts';
import { AnswerCache, type CachedAnswer } from './answer-cache.ts';
import { matches } from './caching.ts';
import { TimeBounds } from './time-bounds.ts';
import { TableVersions } from './table-versions.ts';

// One cache of storefront answers in the read pipeline (docs/performance.md, "The shared cache"):
// a route declares the tables its answer reads (`config.cache`); a guest's GET answer (and a
// customer's, where it does not depend on the customer) is kept as the bytes that were sent,
// with its ETag, under its URL, scope and language, and served again while none of those tables'
// versions moved. A hit is a lookup and a write to the socket: no validation, no handler.

export interface CacheDeclaration {
  /** Every table the answer reads (resource_version names): a write to any drops it. */
  tables: readonly string[];
  /** The answer to a customer token is the same for every customer, so it is kept too. */
  customers?: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    cache?: CacheDeclaration;
    /**
     * A write route that writes no table a cached answer reads (none with a resource_version):
     * it answers without reading the versions again, since its write cannot have moved one.
     */
    movesNoVersion?: true;
  }
  interface FastifyInstance {
    /** The answer cache and the table versions it checks (absent when `cache.enabled` is off). */
    responseCache?: ResponseCache;
  }
  interface FastifyRequest {
    /** The key and table stamps of a cacheable read that missed, set before its handler runs. */
    cacheMiss: {
      key: string;
      tables: readonly string[];
      stamps: number[];
      /** Kept when sent: its key was asked before, or other requests wait for this answer. */
      worthKeeping(): boolean;
      finished(): void;
    } | null;
  }
}

/** The answer cache and the table versions it checks. */
export interface ResponseCache {
  answers: AnswerCache;
  versions: TableVersions;
  timeBounds: TimeBounds;
}

/** How long a request waits for another request's read of the same key before reading itself. */
const WAIT_AT_MOST_MS = 2000;

/** The headers a kept answer is sent with again: those its route's onSend hooks set (caching.ts). */
const KEPT_HEADERS = ['content-type', 'etag', 'cache-control', 'content-language', 'vary'] as const;

/**
 * The one key of an answer. The language is the raw Accept-Language for now (a `locale` query is
 * part of the URL already).
 */
export function cacheKey(
  request: { readonly url?: string; readonly headers: IncomingHttpHeaders },
  scope: 'guest' | 'customer',
): string {
  return `${scope}\n${request.headers['accept-language'] ?? ''}\n${request.url}`;
}

function scopeToCache(request: FastifyRequest, declaration: CacheDeclaration): 'guest' | 'customer' | null {
  const kind = request.caller.kind;
  if (kind === 'guest') return 'guest';
  return kind === 'customer' && declaration.customers ? 'customer' : null;
}

/**
 * The kept answer under `key` while it is still right: every table it read unchanged since, its
 * time bound not passed. The one check of a hit, in Fastify's onRequest and before Fastify.
 */
export function keptAnswer(cache: ResponseCache, key: string): CachedAnswer | undefined {
  const entry = cache.answers.get(key);
  if (entry === undefined || !cache.versions.unchanged(entry.tables, entry.stamps)) return undefined;
  if (entry.until !== null && Date.now() >= entry.until) return undefined;
  return entry;
}

/** Whether the caller's If-None-Match names the kept answer's ETag: 304, without the body. */
export function notModified(entry: CachedAnswer, ifNoneMatch: string | undefined): boolean {
  const etag = entry.headers.etag;
  return ifNoneMatch !== undefined && etag !== undefined && matches(ifNoneMatch, etag);
}

/**
 * Installs the cache when `cache.enabled`: route hooks, the versions' listener, its stop.
 * `own`: the headers the app's onRequest hooks give every answer (an answer that has others is
 * never answered before Fastify).
 */
export async function installResponseCache(
  app: FastifyInstance,
  config: Config,
  database: Database,
  own: OwnHeaders,
) {
  if (!config.cache.enabled) return;
  const answers = new AnswerCache(config.cache.maxMegabytes * 1024 * 1024);
  const versions = new TableVersions(database.db, () => answers.clear());
  // Listening starts when the app is ready: a start that fails before leaves no connection open.
  app.addHook('onReady', () => versions.start(database));
  const timeBounds = new TimeBounds(versions);
  const cache: ResponseCache = { answers, versions, timeBounds };
  app.decorate('responseCache', cache);
  app.decorateRequest('cacheMiss', null);
  app.addHook('onClose', async () => versions.stop());
  app.addHook('onRoute', (route) => {
    const declaration = route.config?.cache;
    const methods = [route.method].flat();
    if (declaration && methods.includes('GET')) {
      route.onRequest = [route.onRequest ?? []].flat().concat(lookup(declaration, cache));
      route.onSend = [route.onSend ?? []].flat().concat(keep(cache, own));
    } else if (!methods.every((m) => m === 'GET' || m === 'HEAD') && !route.config?.movesNoVersion) {
      route.onSend = [route.onSend ?? []].flat().concat(refreshAfterWrite(versions, answers));
    }
  });
}

/** A read of a key under way: the requests waiting for its answer, and when they stop waiting. */
interface Reading {
  finish(): void;
  waiters: (() => void)[] | null;
  timer: NodeJS.Timeout | null;
}

/**
 * onRequest: a kept answer whose tables have not moved is sent as it is; a miss notes its stamps.
 * While one read of a key is under way, the same key's other requests wait for its answer rather
 * than read too (after a write, every connection asks the changed page at once). A read nobody
 * waits for costs a map entry: the wait's timer is set by its first waiter.
 */
function lookup(declaration: CacheDeclaration, cache: ResponseCache): onRequestHookHandler {
  const { answers, versions, timeBounds } = cache;
  const reading = new Map<string, Reading>();
  const answerFromCache = (key: string, request: FastifyRequest, reply: FastifyReply): boolean => {
    const entry = keptAnswer(cache, key);
    if (entry === undefined) return false;
    answers.hits++;
    sendReady(reply, entry.body, entry.headers, notModified(entry, request.headers['if-none-match']));
    return true;
  };
  const read = (request: FastifyRequest, key: string, done: HookHandlerDoneFunction) => {
    answers.misses++;
    const underWay: Reading = {
      waiters: null,
      timer: null,
      finish() {
        if (reading.get(key) === underWay) reading.delete(key);
        if (underWay.timer !== null) clearTimeout(underWay.timer);
        const waiters = underWay.waiters;
        underWay.waiters = null;
        // Once the current hook has returned: a waiter that finds nothing kept starts a read of its own.
        if (waiters !== null)
          queueMicrotask(() => {
            for (const wake of waiters) wake();
          });
      },
    };
    reading.set(key, underWay);
    // Taken before the read: a write committed meanwhile moves a stamp, and the answer is dropped.
    const tables = timeBounds.widen(declaration.tables);
    const asked = answers.worthKeeping(key);
    request.cacheMiss = {
      key,
      tables,
      stamps: versions.stampsOf(tables),
      worthKeeping: () => asked || underWay.waiters !== null,
      finished: underWay.finish,
    };
    done();
  };
  const wait = (underWay: Reading, wake: () => void) => {
    if (underWay.waiters === null) underWay.waiters = [];
    underWay.waiters.push(wake);
    // Waiters never wait on an answer that is never sent: they read themselves after a while.
    underWay.timer ??= setTimeout(underWay.finish, WAIT_AT_MOST_MS).unref();
  };
  return (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const scope = request.method === 'GET' && versions.live ? scopeToCache(request, declaration) : null;
    if (scope === null) return done();
    const key = cacheKey(request, scope);
    if (answerFromCache(key, request, reply)) return;
    const underWay = reading.get(key);
    if (underWay === undefined) return read(request, key, done);
    wait(underWay, () => {
      if (!answerFromCache(key, request, reply)) read(request, key, done);
    });
  };
}

/** onSend, after the route's caching headers: keeps a successful answer as its bytes. */
function keep(cache: ResponseCache, own: OwnHeaders): onSendHookHandler {
  const { answers, versions, timeBounds } = cache;
  return (request, reply, payload, done) => {
    const miss = request.cacheMiss;
    if (miss === null) return done(null, payload);
    request.cacheMiss = null;
    const bytes = typeof payload === 'string' || Buffer.isBuffer(payload);
    if (reply.statusCode !== 200 || !bytes || !versions.live || !miss.worthKeeping()) {
      miss.finished();
      return done(null, payload);
    }
    const body = typeof payload === 'string' ? utf8Bytes(payload) : payload;
    const headers: Record<string, string> = {};
    for (const name of KEPT_HEADERS) {
      const value = reply.getHeader(name);
      if (value !== undefined) headers[name] = String(value);
    }
    const route = request.routeOptions.url ?? request.url;
    const early = answeredAsEarly(request, reply, own);
    const { tables, stamps } = miss;
    const store = (until: number | null) => answers.set(miss.key, { body, headers, tables, stamps, until, route, early });
    const send = () => {
      miss.finished();
      done(null, body);
    };
    // Without a bound to ask again (nearly always), kept and sent in this turn, with no promise.
    const known = timeBounds.untilIfKnown(tables);
    if (known !== undefined) {
      store(known);
      return send();
    }
    timeBounds.until(tables).then(store, () => {}).finally(send); // on a failed ask: sent, not kept
  };
}

/**
 * Whether a guest's hit on this answer may be sent before Fastify (early-hits.ts): its route counts
 * no requests (a per-IP limit counts hits too, in its onRequest hook) and it carries no header but
 * the request's own and the kept ones (no route or plugin hook added one the early hit would lack).
 */
function answeredAsEarly(request: FastifyRequest, reply: FastifyReply, own: OwnHeaders): boolean {
  if (request.routeOptions.config.rateLimit) return false;
  return onlyOwnHeaders(reply.getHeaders(), own, request.headers.origin, KEPT_HEADERS);
}

/**
 * onSend of every write route: a successful write waits for a read of the versions that started
 * after it committed, so the next request to this instance never gets an answer from before it
 * (other instances follow within the notification's delivery). Concurrent writes share that read.
 */
function refreshAfterWrite(versions: TableVersions, answers: AnswerCache): onSendHookHandler {
  return (_request, reply, payload, done) => {
    if (reply.statusCode >= 400 || !versions.live) return done(null, payload);
    versions.catchUp().then(
      () => done(null, payload),
      () => {
        // Versions unknown: nothing kept may be served.
        answers.clear();
        done(null, payload);
      },
    );
  };
}
