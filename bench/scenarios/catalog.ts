import { sql } from 'drizzle-orm';
import { openDatabase } from '../../src/db/client.ts';
import type { BenchContext, Scenario } from './types.ts';

// Catalog reads over 10,000 products in 20 categories (333 of them with 4-12 variants), seeded
// straight into the database with INSERT … SELECT (the admin API would take minutes). PGlite allows
// one process per data dir, so the seed runs with the server stopped on both engines for simplicity.

const PRODUCTS = 10_000;

/**
 * 20 running promotions, as a busy shop has them (docs/promotions.md): 5 catalog sales on five of
 * the 20 categories and 15 cart rules, so every price read goes through catalog_price.
 */
export const benchPromotions = sql`
  insert into promotion (name, kind, conditions, action, priority)
  select 'Sale ' || g, 'catalog', jsonb_build_object('categoryIds', jsonb_build_array((select min(id) from category) + g)),
         jsonb_build_object('type', 'percent', 'value', 5 + g), 0
  from generate_series(0, 4) g
  union all
  select 'Cart rule ' || g, 'cart', jsonb_build_object('minSubtotal', 10 * g),
         case when g % 3 = 0 then jsonb_build_object('type', 'buy_x_get_y', 'buyQty', 2, 'getQty', 1, 'percent', 50)
              when g % 3 = 1 then jsonb_build_object('type', 'fixed', 'value', 1)
              else jsonb_build_object('type', 'percent', 'value', 2) end, g
  from generate_series(1, 15) g`;

export async function catalogSeed(ctx: BenchContext): Promise<void> {
  const database = await openDatabase({ databaseUrl: ctx.databaseUrl, dataDir: ctx.dataDir ?? 'memory://' });
  try {
    await database.migrate();
    await database.db.execute(sql`
      insert into category (name, slug)
      select 'Category ' || g, 'category-' || g from generate_series(1, 20) g`);
    await database.db.execute(sql`
      insert into product (sku, slug, name, description, price, stock_qty, weight_kg, category_id, brand, active)
      select 'SKU-' || g, 'product-' || g, 'Product ' || g || ' ' || md5(g::text),
             'Description of product ' || g, 100 + (g * 7919) % 50000, g % 50, (g % 20) / 4.0,
             (select min(id) from category) + g % 20, 'Brand ' || (g % 40), g % 25 <> 0
      from generate_series(1, ${PRODUCTS}) g`);
    // A few hundred products (every 30th: 333) in sizes and colours with 4-12 variants each, some
    // at their own price: the plain variant the database made is replaced by the combinations.
    await database.db.execute(sql`
      update product set options = '[{"name":"Size","values":["XS","S","M","L"]},{"name":"Colour","values":["Black","White","Navy"]}]'::jsonb
      where id % 30 = 0`);
    await database.db.execute(sql`
      delete from product_variant v using product p where v.product_id = p.id and jsonb_array_length(p.options) > 0`);
    await database.db.execute(sql`
      insert into product_variant (product_id, sku, options, price, stock_qty, position)
      select p.id, p.sku || '-' || k,
             jsonb_build_object('Size', (array['XS','S','M','L'])[1 + (k - 1) % 4],
                                'Colour', (array['Black','White','Navy'])[1 + (k - 1) / 4]),
             case when k % 3 = 0 then p.price + 200 end, (p.id + k) % 20, k
      from product p cross join generate_series(1, 12) k
      where jsonb_array_length(p.options) > 0 and k <= 4 + p.id % 9`);
    // BENCH_PROMOTIONS=0 seeds none: the translation targets (docs/translations.md) are about the
    // read of two locales, measured apart from the sales.
    if (process.env.BENCH_PROMOTIONS !== '0') await database.db.execute(benchPromotions);
    // Both locales filled (docs/translations.md): every product and category has its Greek texts.
    await database.db.execute(sql`
      update product set translations = jsonb_build_object('el', jsonb_build_object(
        'name', 'Προϊόν ' || id || ' ' || md5(id::text), 'description', 'Περιγραφή του προϊόντος ' || id,
        'slug', 'proion-' || id))`);
    await database.db.execute(sql`
      update category set translations = jsonb_build_object('el', jsonb_build_object(
        'name', 'Κατηγορία ' || id, 'slug', 'katigoria-' || id))`);
    await database.db.execute(sql`analyze`);
  } finally {
    await database.close();
  }
}

const customerHeader = (ctx: BenchContext) => ({ authorization: `Bearer ${ctx.state.catalogCustomer}` });

export const catalogScenarios: Scenario[] = [
  {
    group: 'catalog',
    name: 'product list limit=15, guest',
    seed: catalogSeed,
    request: () => ({ path: '/rest/product/product?limit=15' }),
    target: { postgres: 0.08, pglite: 0.03 },
  },
  {
    group: 'catalog',
    name: 'product list limit=15, customer',
    seed: catalogSeed,
    setup: async (ctx) => {
      ctx.state.catalogCustomer = await ctx.customerToken();
    },
    request: (ctx) => ({ path: '/rest/product/product?limit=15', headers: customerHeader(ctx) }),
    target: { postgres: 0.06 },
  },
  {
    group: 'catalog',
    name: 'product list limit=15 in el, guest',
    seed: catalogSeed,
    request: () => ({ path: '/rest/product/product?limit=15&locale=el' }),
    target: { postgres: 0.08, pglite: 0.03 },
    within: { of: 'product list limit=15, guest', share: 0.1 },
  },
  {
    group: 'catalog',
    name: 'product search q= in Greek, guest',
    seed: catalogSeed,
    request: () => ({
      path: `/rest/product/product?q=${encodeURIComponent('προϊόν 12')}&limit=15&locale=el`,
    }),
    target: { postgres: 0.04 },
  },
  {
    group: 'catalog',
    name: 'product list limit=1000, guest',
    seed: catalogSeed,
    request: () => ({ path: '/rest/product/product?limit=1000' }),
    target: 0.004,
  },
  {
    group: 'catalog',
    name: 'product search q=, guest',
    seed: catalogSeed,
    request: () => ({ path: '/rest/product/product?q=product%2012&limit=15' }),
    target: { postgres: 0.04 },
  },
  {
    group: 'catalog',
    name: 'product facets, guest',
    seed: catalogSeed,
    // Every visible product counted per brand, category, price and stock: the widest facets read.
    request: () => ({ path: '/rest/product/product/facets' }),
    target: { postgres: 0.02 },
  },
  {
    group: 'catalog',
    name: 'product facets q=, guest',
    seed: catalogSeed,
    request: () => ({ path: '/rest/product/product/facets?q=product%2012' }),
  },
  {
    group: 'catalog',
    name: 'product list with=category, guest',
    seed: catalogSeed,
    request: () => ({ path: '/rest/product/product?limit=15&with=category' }),
  },
  {
    group: 'catalog',
    name: 'storefront-config',
    seed: catalogSeed,
    request: () => ({ path: '/rest/v1/storefront-config' }),
  },
];
