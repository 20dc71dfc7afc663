import type { TSchema } from '@sinclair/typebox';
import type { RequestContext, Resource } from './types.ts';

/**
 * A resource's list of its own for some query parameters (transports for one address): `params`
 * join the list's query schema; `answer` is the whole list body as JSON text, or undefined to let
 * the standard list answer.
 */
export interface ListVariant {
  params: Record<string, TSchema>;
  answer(rctx: RequestContext, resource: Resource, query: Record<string, unknown>): Promise<string | undefined>;
}
