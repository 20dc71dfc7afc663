import { type Static, Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { Pagination } from '../http/envelope.ts';
import { INT32_MAX } from './fields.ts';
import type { Scope } from './types.ts';

/** Spec 8: the page size when `limit` is omitted, empty or 0, whatever the ceiling. */
export const DEFAULT_PAGE_SIZE = 15;
export const PAGE_MAX = 10_000_000;
/**
 * The largest page size served to anyone. A larger `limit` in decimal digits is read as this
 * (`limitAsSent`), so no size is refused for being large; storefront callers are then clamped
 * further to the live ceiling, and back-office callers get at most this many rows (in practice,
 * every row).
 */
export const LIMIT_MAX = INT32_MAX;

/** The paging parameters of every list (resources, orders, the loyalty ledger): spread them into its query. */
export const PageQuery = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: PAGE_MAX, description: '1-based page number' })),
  limit: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: LIMIT_MAX,
      description: `Items per page; omitted, empty or 0 → ${DEFAULT_PAGE_SIZE}; larger values are read as ${LIMIT_MAX}; storefront callers are clamped to rest_max_page_size`,
    }),
  ),
};

/**
 * A list route's preValidation hook: `limit=` (empty) means the default like an omitted limit,
 * and a limit in digits beyond LIMIT_MAX is read as LIMIT_MAX (clamped, not refused). Anything
 * else, negative, fractional or not a number, is left to the schema (400).
 */
export async function limitAsSent(request: FastifyRequest): Promise<void> {
  const query = request.query as Record<string, unknown>;
  const limit = query.limit;
  if (limit === '') delete query.limit;
  else if (typeof limit === 'string' && /^[0-9]+$/.test(limit) && Number(limit) > LIMIT_MAX) {
    query.limit = String(LIMIT_MAX);
  }
}

/**
 * The page size actually applied: the default for 0, the request for back-office callers
 * (no ceiling beyond LIMIT_MAX), and for storefront callers the request silently clamped to the
 * live ceiling.
 */
export function appliedPageSize(requested: number, scope: Scope, ceiling: number): number {
  if (requested <= 0) return DEFAULT_PAGE_SIZE;
  return scope === 'backend' ? requested : Math.min(requested, ceiling);
}

export function paginationOf(page: number, perPage: number, total: number): Static<typeof Pagination> {
  const totalPages = Math.ceil(total / perPage);
  return {
    current_page: page,
    per_page: perPage,
    total,
    total_pages: totalPages,
    has_next: page < totalPages,
    has_prev: page > 1,
  };
}
