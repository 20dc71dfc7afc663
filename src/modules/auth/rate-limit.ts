import rateLimit, { type RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import type { Config } from '../../config.ts';
import { AppError } from '../../http/errors.ts';

/**
 * Rate limiting, wired once in buildApp (`registerRateLimit`, before the modules):
 *
 * - per IP: a route adds `config: { rateLimit: perIpLimit(app.config, 'couponPerIp') }`;
 *   @fastify/rate-limit counts in its onRequest hook, keyed by `request.ip` (which honours
 *   X-Forwarded-For only when `trustProxy` is on), one counter per route;
 * - per other key (an account, a customer): a route adds
 *   `preHandler: perKeyLimit(app, 'loginPerAccount', 'login:admin', (request) => …)`,
 *   counted after the body is parsed.
 *
 * Both share one store: in memory, or Redis when `redisUrl` is set (so every instance
 * counts together). Limits come from `config.rateLimit`; `enabled: false` turns them off.
 */

type RateLimitSettings = Config['rateLimit'];
/** A configured maximum, e.g. 'loginPerIp' or 'couponPerIp'. */
export type LimitName = Exclude<keyof RateLimitSettings, 'enabled' | 'windowSeconds' | 'keyPrefix'>;

/** Entries of the in-memory store before the least recently used is dropped. */
const LOCAL_CACHE_SIZE = 100_000;
const REDIS_CONNECT_TIMEOUT_MS = 2_000;

function rateLimited(retryAfterSeconds: number): AppError {
  return new AppError('RATE_LIMITED', `too many requests, retry in ${retryAfterSeconds} s`);
}

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
 * A preHandler counting requests per key (e.g. per account), next to the route's per-IP
 * limit. `scope` separates counters of different uses; `keyOf` reads the key from the
 * validated request.
 */
export function perKeyLimit(
  app: FastifyInstance,
  name: LimitName,
  scope: string,
  keyOf: (request: FastifyRequest) => string,
): PreHandler {
  const settings = app.config.rateLimit;
  if (!settings.enabled) return async () => {};
  const check = app.createRateLimit({
    max: settings[name],
    timeWindow: settings.windowSeconds * 1000,
    keyGenerator: (request) => `${scope}:${keyOf(request)}`,
  });
  return async (request, reply) => {
    const result = await check(request);
    if (result.isAllowed || !result.isExceeded) return;
    reply.header('retry-after', String(result.ttlInSeconds));
    throw rateLimited(result.ttlInSeconds);
  };
}
