import type { App } from '../../src/app.ts';
import { cacheKey } from '../../src/resources/index.ts';

// Hits over a real socket: a guest's kept answer is sent before Fastify (src/resources/early-hits.ts),
// which app.inject never reaches (it calls Fastify's handler itself).

/** Listens on a free port of 127.0.0.1 and answers the base URL. */
export async function listening(app: App): Promise<string> {
  return app.listen({ port: 0, host: '127.0.0.1' });
}

/** Every header of an answer but the date and the request id, which differ per request. */
export function headersApartFromIdAndDate(res: Response): Record<string, string> {
  const { date: _date, 'x-request-id': _id, ...rest } = Object.fromEntries(res.headers);
  return rest;
}

/** The kept guest answer of `url` (asked with `headers`), which must be there. */
function keptEntry(app: App, url: string, headers: Record<string, string>) {
  const entry = app.responseCache?.answers.get(cacheKey({ url, headers }, 'guest'));
  if (entry === undefined) throw new Error(`no kept guest answer for ${url}`);
  return entry;
}

/**
 * One GET of `url` over HTTP answered by Fastify's path, one answered before it (both hits of
 * the kept answer), and the count of early hits between: the same request twice.
 */
export async function bothPaths(
  app: App,
  base: string,
  url: string,
  given: Record<string, string> = {},
): Promise<{ fastify: Response; early: Response; earlyHits: number }> {
  // fetch sends Accept-Language: * unless told, and the language is part of the key.
  const headers = { 'accept-language': 'en', ...given };
  const answers = app.responseCache?.answers;
  if (answers === undefined) throw new Error('the answer cache is off');
  // An answer is kept from its URL's second ask (docs/performance.md, "Kept from the second ask").
  for (let ask = 0; ask < 2; ask++) await fetch(base + url, { headers }).then((res) => res.arrayBuffer());
  const entry = keptEntry(app, url, headers);
  const early = entry.early;
  entry.early = false;
  const fastify = await fetch(base + url, { headers });
  entry.early = early;
  const before = answers.earlyHits;
  const second = await fetch(base + url, { headers });
  return { fastify, early: second, earlyHits: answers.earlyHits - before };
}
