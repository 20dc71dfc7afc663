import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type LimitCounter, limitCounter } from '../../http/limit-counter.ts';

/**
 * Place-order attempts per window: a guest's counted per client address (`placeOrderPerIp`), a
 * customer's per account (`placeOrderPerCustomer`), wherever they come from. Every attempt counts,
 * refused ones too (each costs a transaction); the replay of an earlier answer for the same
 * Idempotency-Key is given back, since it places nothing. Admin tokens are refused by the route
 * anyway and count nowhere.
 */
export interface PlaceOrderLimit {
  /** preHandler: counts the attempt, or answers 429. */
  take(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  /** Gives back the attempt of a request that only replayed an earlier answer. */
  giveBack(request: FastifyRequest): Promise<void>;
}

export function placeOrderLimit(app: FastifyInstance): PlaceOrderLimit {
  const perIp = limitCounter(app, 'placeOrderPerIp');
  const perCustomer = limitCounter(app, 'placeOrderPerCustomer');
  const counterOf = (request: FastifyRequest): [LimitCounter, string] | undefined => {
    const caller = request.caller;
    if (caller.kind === 'customer') return [perCustomer, String(caller.customerId)];
    if (caller.kind === 'guest') return [perIp, request.ip];
    return undefined;
  };
  return {
    async take(request, reply) {
      const counted = counterOf(request);
      if (counted) await counted[0].take(counted[1], reply);
    },
    async giveBack(request) {
      const counted = counterOf(request);
      if (counted) await counted[0].giveBack(counted[1]);
    },
  };
}
