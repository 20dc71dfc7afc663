import type { Config } from '../config.ts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import { AppError } from './errors.ts';

/** A limit of `rateLimit` in the configuration that counts something (not a switch or a window). */
export type LimitName = Exclude<keyof Config['rateLimit'], 'enabled' | 'windowSeconds' | 'keyPrefix'>;

/**
 * Counts events per key over the configured window (`rateLimit.windowSeconds`), for limits where
 * the service decides what counts and when: a failed login (not a successful one), a request that
 * creates a guest cart (not every cart write), an order that is not an idempotent replay.
 *
 * The counts live in the rate-limit store of registerRateLimit: in memory, or in Redis over the
 * app's one connection (`app.rateLimitRedis`), so every instance counts together. As with the
 * per-route limits, a store outage lets requests through (registerRateLimit logs it): losing the
 * store must not take logins and checkout down with it.
 */
export interface LimitCounter {
  /** 429 (with Retry-After) when the key's allowance is used up; counts nothing. */
  refuseIfSpent(key: string, reply: FastifyReply): Promise<void>;
  /** Whether the key's allowance is used up; counts nothing and refuses nothing. */
  isSpent(key: string): Promise<boolean>;
  /** Counts one event, or answers 429 when the allowance was already used up. */
  take(key: string, reply: FastifyReply): Promise<void>;
  /** Counts one event that has already happened (a failure): never refuses. */
  count(key: string): Promise<void>;
  /** Takes back one counted event (an idempotent replay that placed nothing). */
  giveBack(key: string): Promise<void>;
  /** Forgets every event of the key (a successful login clears its failures). */
  forget(key: string): Promise<void>;
}

export function rateLimited(retryAfterSeconds: number): AppError {
  return new AppError('RATE_LIMITED', `too many requests, retry in ${retryAfterSeconds} s`);
}

function refuse(reply: FastifyReply, res: RateLimiterRes): never {
  const seconds = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
  reply.header('retry-after', String(seconds));
  throw rateLimited(seconds);
}

/** A store error (not a refusal) is swallowed: the request passes, as with the per-route limits. */
async function tolerant<T>(work: Promise<T>): Promise<T | undefined> {
  try {
    return await work;
  } catch (err) {
    if (err instanceof RateLimiterRes) throw err;
    return undefined;
  }
}

const NO_LIMIT: LimitCounter = {
  refuseIfSpent: async () => {},
  isSpent: async () => false,
  take: async () => {},
  count: async () => {},
  giveBack: async () => {},
  forget: async () => {},
};

/**
 * The counter of limit `name` (its maximum from `config.rateLimit[name]`); `scope` separates
 * counters that share a maximum (the admin and customer logins); `windowSeconds` replaces
 * `rateLimit.windowSeconds` for a limit stated over another period. A no-op when limits are off.
 */
export function limitCounter(
  app: FastifyInstance,
  name: LimitName,
  scope: string = name,
  windowSeconds?: number,
): LimitCounter {
  const settings = app.config.rateLimit;
  if (!settings.enabled) return NO_LIMIT;
  const options = {
    points: settings[name],
    duration: windowSeconds ?? settings.windowSeconds,
    keyPrefix: `${settings.keyPrefix}${scope}`,
  };
  const redis = app.rateLimitRedis;
  const limiter: RateLimiterAbstract = redis
    ? new RateLimiterRedis({ ...options, storeClient: redis, rejectIfRedisNotReady: true })
    : new RateLimiterMemory(options);
  return {
    async refuseIfSpent(key, reply) {
      const res = await tolerant(limiter.get(key));
      if (res && res.consumedPoints >= limiter.points) refuse(reply, res);
    },
    async isSpent(key) {
      const res = await tolerant(limiter.get(key));
      return (res?.consumedPoints ?? 0) >= limiter.points;
    },
    async take(key, reply) {
      try {
        await limiter.consume(key);
      } catch (err) {
        if (err instanceof RateLimiterRes) refuse(reply, err);
      }
    },
    async count(key) {
      // Past the maximum consume rejects with the count; the event is counted all the same.
      await limiter.consume(key).catch(() => {});
    },
    async giveBack(key) {
      await tolerant(limiter.reward(key));
    },
    async forget(key) {
      await tolerant(limiter.delete(key));
    },
  };
}
