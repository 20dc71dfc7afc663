import type { Static } from '@sinclair/typebox';
import type { Pagination } from '../http/envelope.ts';
import type { Scope } from './types.ts';

/** Spec 8: the page size when `limit` is omitted, empty or 0, whatever the ceiling. */
export const DEFAULT_PAGE_SIZE = 15;

/**
 * The page size actually applied: the default for 0, the request for back-office callers
 * (no ceiling), and for storefront callers the request silently clamped to the live ceiling.
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
