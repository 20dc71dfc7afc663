import rateLimit, { type RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import type { Config } from '../config.ts';
import { type LimitName, limitCounter, rateLimited } from './limit-counter.ts';

/**
 * Rate limiting, wired once in buildApp (`registerRateLimit`, before the modules):
 *
 * - per IP: a route adds `config: { rateLimit: perIpLimit(app.config, 'couponPerIp') }`;
 *   @fastify/rate-limit counts in its onRequest hook, keyed by `request.ip` (which honours
 *   X-Forwarded-For only when `trustProxy` is on), one counter per route;
 * - per other key (a customer, a cart): a route adds
 *   `preHandler: perKeyLimit(app, 'couponPerIp', 'coupon:cart', (request) => …)`,
 *   counted after the body is parsed;
 * - events a service decides to count (a failed login, a new guest cart): `limitCounter`
 *   (limit-counter.ts).
 *
 * All share one store: in memory, or Redis when `redisUrl` is set (so every instance counts
 * together), over ONE connection opened here (`app.rateLimitRedis`). Limits come from
 * `config.rateLimit`; `enabled: false` turns them off.
 */

declare module 'fastify' {
  interface FastifyInstance {
    /** The rate-limit store's connection when `redisUrl` is set; undefined keeps counters in memory. */
    rateLimitRedis: Redis | undefined;
  }
}

export type { LimitName };

/** Entries of the in-memory store before the least recently used is dropped. */
const LOCAL_CACHE_SIZE = 100_000;
const REDIS_CONNECT_TIMEOUT_MS = 2_000;

/** Connects at start so a wrong REDIS_URL stops the start instead of silently not limiting. */
async function connectRedis(app: FastifyInstance, url: string): Promise<Redis> {
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
    maxRetriesPerRequest: 1,
  });
  let failing = false;
  redis.on('error', (err: Error) => {
    if (!failing)
      app.log.warn({ err: err.message }, 'rate-limit store unreachable; requests are not limited');
    failing = true;
  });
  redis.on('ready', () => {
    failing = false;
  });
  try {
    await redis.connect();
  } catch (err) {
    redis.disconnect();
    throw new Error(`REDIS_URL: cannot connect to the rate-limit store (${(err as Error).message})`);
  }
  app.addHook('onClose', async () => {
    await redis.quit().catch(() => redis.disconnect());
  });
  return redis;
}

/** Registers @fastify/rate-limit for routes that ask for it (never globally). */
export async function registerRateLimit(app: FastifyInstance, config: Config): Promise<void> {
  const settings = config.rateLimit;
  const redis = settings.enabled && config.redisUrl ? await connectRedis(app, config.redisUrl) : undefined;
  app.decorate('rateLimitRedis', redis);
  await app.register(rateLimit, {
    global: false,
    redis,
    nameSpace: settings.keyPrefix,
    cache: LOCAL_CACHE_SIZE,
    // A store outage must not take logins down with it: requests pass, and the outage is logged.
    skipOnError: true,
    // Our AppError, so the error handler answers the envelope; the plugin has set Retry-After.
    errorResponseBuilder: (_request, context) => rateLimited(Math.ceil(context.ttl / 1000)),
  });
}

/** Per-IP limit for a route's `config.rateLimit`; `false` (no limit) when rate limits are off. */
export function perIpLimit(config: Config, name: LimitName): RateLimitOptions | false {
  const settings = config.rateLimit;
  if (!settings.enabled) return false;
  return { max: settings[name], timeWindow: settings.windowSeconds * 1000 };
}

type PreHandler = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/**
 * A preHandler counting every request per key (e.g. per customer), next to the route's per-IP
 * limit. `scope` separates counters of different uses; `keyOf` reads the key from the
 * validated request.
 */
export function perKeyLimit(
  app: FastifyInstance,
  name: LimitName,
  scope: string,
  keyOf: (request: FastifyRequest) => string,
): PreHandler {
  const counter = limitCounter(app, name, scope);
  return (request, reply) => counter.take(keyOf(request), reply);
}
