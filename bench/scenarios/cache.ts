import { catalogSeed } from './catalog.ts';
import type { BenchContext, Scenario } from './types.ts';

// The answer cache (docs/performance.md, "The shared cache"), over the catalog's 10,000 products:
// hits (the same URL again), misses (every URL new: asked once, so not kept) and hits while a price
// on the first page changes every second. Targets as ratios to R on PostgreSQL. A target about the
// read path itself (translations, promotions) is measured on a miss: a hit reads nothing.

const FIRST_PAGE = '/rest/product/product?limit=15';

/** PATCHes product 1's price (on the first page) every second, alternating two prices. */
async function priceWriteEverySecond(ctx: BenchContext): Promise<() => Promise<void>> {
  const token = ctx.state.cacheAdmin ?? (await ctx.adminToken());
  ctx.state.cacheAdmin = token;
  let n = 0;
  const write = () =>
    fetch(`${ctx.baseUrl}/rest/product/product/1`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ price: 100 + (++n % 2) }),
    }).then((res) => {
      if (!res.ok) throw new Error(`the price write answered ${res.status}`);
    });
  const timer = setInterval(() => {
    write().catch((err: unknown) => console.error(err));
  }, 1000);
  return async () => clearInterval(timer);
}

export const cacheScenarios: Scenario[] = [
  {
    group: 'cache',
    name: 'cache hit: product list limit=15, guest',
    seed: catalogSeed,
    request: () => ({ path: FIRST_PAGE }),
    target: { postgres: 0.6 },
  },
  {
    group: 'cache',
    name: 'cache hit: product page, guest',
    seed: catalogSeed,
    request: () => ({ path: '/rest/product/product/42' }),
    target: { postgres: 0.6 },
  },
  {
    group: 'cache',
    name: 'cache hit: storefront-config',
    seed: catalogSeed,
    request: () => ({ path: '/rest/v1/storefront-config' }),
    target: { postgres: 0.7 },
  },
  {
    group: 'cache',
    name: 'cache miss: product list limit=15, guest',
    seed: catalogSeed,
    request: () => ({ path: FIRST_PAGE }),
    distinctUrls: true,
  },
  {
    group: 'cache',
    name: 'cache miss: product list limit=15 in el, guest',
    seed: catalogSeed,
    request: () => ({ path: `${FIRST_PAGE}&locale=el` }),
    distinctUrls: true,
    // docs/translations.md: the Greek list within 10 % of the same list in the default locale.
    within: { of: 'cache miss: product list limit=15, guest', share: 0.1 },
  },
  {
    group: 'cache',
    name: 'cache miss: product search q= in Greek, guest',
    seed: catalogSeed,
    request: () => ({
      path: `/rest/product/product?q=${encodeURIComponent('προϊόν 12')}&limit=15&locale=el`,
    }),
    distinctUrls: true,
    target: { postgres: 0.04 },
  },
  {
    group: 'cache',
    name: 'cache miss: product search q=, guest',
    seed: catalogSeed,
    request: () => ({ path: '/rest/product/product?q=product%2012&limit=15' }),
    distinctUrls: true,
  },
  {
    group: 'cache',
    name: 'cache miss: storefront-config',
    seed: catalogSeed,
    request: () => ({ path: '/rest/v1/storefront-config' }),
    distinctUrls: true,
  },
  {
    group: 'cache',
    name: 'one price write per second: product list limit=15, guest',
    seed: catalogSeed,
    request: () => ({ path: FIRST_PAGE }),
    background: priceWriteEverySecond,
    target: { postgres: 0.4 },
  },
];
