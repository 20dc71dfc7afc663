import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../http/errors.ts';
import { limitCounter } from '../../http/limit-counter.ts';
import type { AccessTokens, AuthContext } from './tokens.ts';

/** The request header carrying the device token of an earlier successful login. */
export const DEVICE_TOKEN_HEADER = 'x-device-token';

/**
 * Runs a password check of `account` (its normalised login name) under the login limits: 429
 * before `check` runs when the account is refused, so a refused attempt costs no hashing; an
 * INVALID_CREDENTIALS thrown by `check` counts as a failed login.
 */
export type PasswordGuard = <T>(account: string, check: () => Promise<T>) => Promise<T>;

/**
 * Failed password checks (logins, and the current password of a password or e-mail change),
 * counted in the rate-limit store, following OWASP's device cookies:
 * - a device token (`X-Device-Token`, answered by every successful login, signed with the
 *   service's key, bound to the context and the login name, valid a year) marks a device that
 *   logged in to this account before. Its holder is exempt from the limits below and only has
 *   its own allowance of failures (`loginPerDevice`); a device token past it, expired, forged or
 *   of another account counts for nothing, as if none were sent;
 * - without one, failures count per account and client address (`loginPerAccount`), so a guesser
 *   at one address is stopped after a few tries, and per account from every address together
 *   (`loginPerAccountAllIps`), so a guesser spreading tries over many addresses is stopped too.
 *   That one refuses every unknown device, but never a device the owner logged in from.
 * A success counts nothing and clears the failures of its (account, address) pair and device.
 *
 * Two attempts in flight at once may both pass the check before either failure is counted; the
 * overshoot is bounded by the concurrency of one client, which the per-IP limit bounds too.
 */
export interface LoginLimits {
  /** The guard for the password checks of one request (its address and device token). */
  guard(request: FastifyRequest, reply: FastifyReply): PasswordGuard;
  /** A new device token for `account`, answered with each successful login. */
  deviceToken(account: string): Promise<string>;
}

export function loginLimits(app: FastifyInstance, tokens: AccessTokens, ctx: AuthContext): LoginLimits {
  const perPair = limitCounter(app, 'loginPerAccount', `login-failures:${ctx}`);
  const perAccount = limitCounter(app, 'loginPerAccountAllIps', `login-failures-all:${ctx}`);
  const perDevice = limitCounter(app, 'loginPerDevice', `login-failures-device:${ctx}`);

  /** The id of a device token of `account` with failures left; undefined otherwise. */
  async function knownDevice(account: string, token: unknown): Promise<string | undefined> {
    if (typeof token !== 'string' || token === '') return undefined;
    const device = await tokens.deviceId(token, ctx, account);
    if (device === undefined || (await perDevice.isSpent(device))) return undefined;
    return device;
  }

  return {
    guard(request, reply) {
      return async <T>(account: string, check: () => Promise<T>): Promise<T> => {
        const pair = `${account}|${request.ip}`;
        const device = await knownDevice(account, request.headers[DEVICE_TOKEN_HEADER]);
        if (device === undefined) {
          await perPair.refuseIfSpent(pair, reply);
          await perAccount.refuseIfSpent(account, reply);
        }
        try {
          const result = await check();
          await Promise.all([perPair.forget(pair), device === undefined || perDevice.forget(device)]);
          return result;
        } catch (err) {
          if (err instanceof AppError && err.code === 'INVALID_CREDENTIALS') {
            if (device !== undefined) await perDevice.count(device);
            else await Promise.all([perPair.count(pair), perAccount.count(account)]);
          }
          throw err;
        }
      };
    },
    deviceToken: (account) => tokens.signDevice(ctx, account),
  };
}
