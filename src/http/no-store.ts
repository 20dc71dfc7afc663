import type { FastifyReply, FastifyRequest } from 'fastify';

/** The Cache-Control of anything personal: never kept by a browser or a shared cache. */
export const NO_STORE = 'private, no-store';

/**
 * An onSend hook for a plugin whose every answer is personal (tokens, carts, quotes, orders),
 * errors included.
 */
export async function neverStored(_request: FastifyRequest, reply: FastifyReply, payload: unknown) {
  reply.header('cache-control', NO_STORE);
  return payload;
}
