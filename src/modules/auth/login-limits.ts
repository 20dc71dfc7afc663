import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../http/errors.ts';
import { limitCounter } from '../../http/limit-counter.ts';
import type { LoginBodyType } from './auth.schemas.ts';
import type { AuthContext } from './tokens.ts';

/** A login request, its body validated by the route's schema before any of these run. */
type LoginRequest = FastifyRequest<{ Body: LoginBodyType }>;

/**
 * Failed logins, counted in the rate-limit store:
 * - per account and client address (`loginPerAccount`): a guesser at one address is stopped
 *   after a few tries while the owner, logging in from elsewhere, is not;
 * - per account from every address together (`loginPerAccountAllIps`): a guesser spreading tries
 *   over many addresses is stopped as well, at a figure high enough that a stranger's failures do
 *   not easily lock the owner out.
 * A successful login counts nothing and clears the failures of its (account, address) pair. Once
 * either allowance is used up the login answers 429 before the password is looked at, so a
 * refused attempt costs no password hashing.
 *
 * Two attempts in flight at once may both pass the check before either failure is counted; the
 * overshoot is bounded by the concurrency of one client, which the per-IP limit bounds too.
 */
export interface LoginLimits {
  /** preHandler: 429 when the account is refused at this address or everywhere. */
  check(request: LoginRequest, reply: FastifyReply): Promise<void>;
  /** Runs the login: a wrong password is counted on both counters, a success clears its pair. */
  attempt<T>(request: LoginRequest, login: () => Promise<T>): Promise<T>;
}

export function loginLimits(
  app: FastifyInstance,
  ctx: AuthContext,
  accountOf: (body: LoginBodyType) => string,
): LoginLimits {
  const perPair = limitCounter(app, 'loginPerAccount', `login-failures:${ctx}`);
  const perAccount = limitCounter(app, 'loginPerAccountAllIps', `login-failures-all:${ctx}`);
  const pairKey = (request: LoginRequest) => `${accountOf(request.body)}|${request.ip}`;
  return {
    async check(request, reply) {
      await perPair.refuseIfSpent(pairKey(request), reply);
      await perAccount.refuseIfSpent(accountOf(request.body), reply);
    },
    async attempt(request, login) {
      try {
        const result = await login();
        await perPair.forget(pairKey(request));
        return result;
      } catch (err) {
        if (err instanceof AppError && err.code === 'INVALID_CREDENTIALS') {
          await Promise.all([perPair.count(pairKey(request)), perAccount.count(accountOf(request.body))]);
        }
        throw err;
      }
    },
  };
}
