import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { eq, fillPlaceholders, sql } from 'drizzle-orm';
import pg from 'pg';
import { PLAN_CACHE_MODE, queryRows, RANDOM_PAGE_COST } from '../../src/db/client.ts';
import type { Caller } from '../../src/http/access.ts';
import { categories } from '../../src/modules/catalog/catalog.tables.ts';
import { facetsQuery } from '../../src/modules/catalog/facets.ts';
import { productResource } from '../../src/modules/catalog/product.resource.ts';
import { parseListQuery, planOf } from '../../src/resources/list-query.ts';
import { countStatement, pageStatement } from '../../src/resources/repo.ts';
import type { ReadContext, Scope } from '../../src/resources/types.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { insertProducts } from '../helpers/catalog-factories.ts';
import { testEngine } from '../helpers/database.ts';

// The documented product filters and sorts must be index-driven on a realistic catalog: the
// framework's own statements (not hand-written ones) are EXPLAINed after ANALYZE.

const PRODUCTS = 10_000;
/**
 * Words of the product names for the search plans, each in about 1 % of the products (what a
 * search usually finds); the other products say "item".
 */
const wordOf = (k: number) => (k % 300 < 20 ? WORDS[k % 300] : 'item');
const WORDS = [
  'espresso',
  'lavazza',
  'grinder',
  'kettle',
  'teapot',
  'filter',
  'beans',
  'crema',
  'moka',
  'cup',
  'mug',
  'scale',
  'dripper',
  'carafe',
  'thermos',
  'roaster',
  'tamper',
  'pitcher',
  'saucer',
  'spoon',
];

/** Greek words of the translated names, each in about 1 % of the products too. */
const greekOf = (k: number) => (k % 300 < 10 ? GREEK[k % 300] : 'είδος');
const GREEK = ['καφές', 'τσάι', 'μύλος', 'βραστήρας', 'τσαγιέρα', 'φίλτρο', 'κόκκοι', 'κούπα', 'ζυγαριά', 'κανάτα'];

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}

function seqScans(node: PlanNode): string[] {
  const own =
    node['Node Type'] === 'Seq Scan' && node['Relation Name'] === 'product' ? ['Seq Scan on product'] : [];
  return [...own, ...(node.Plans ?? []).flatMap(seqScans)];
}

describe('product list plans on 10,000 products (PostgreSQL)', { skip: testEngine !== 'postgres' }, () => {
  let t: TestApp;
  let client: pg.Client;
  let categoryId: number;

  before(async () => {
    t = await startTestApp();
    const db = t.database.db;
    const cats = await db
      .insert(categories)
      .values(Array.from({ length: 50 }, (_, i) => ({ name: `Cat ${i}`, slug: `cat-${i}` })))
      .returning({ id: categories.id });
    categoryId = cats[17].id;
    // A small subtree under category 17: 40 below it, 41 below 40.
    await db.update(categories).set({ parentId: cats[17].id }).where(eq(categories.id, cats[40].id));
    await db.update(categories).set({ parentId: cats[40].id }).where(eq(categories.id, cats[41].id));
    await insertProducts(db, PRODUCTS, (i) => ({
      sku: `IDX-${i}`,
      slug: `idx-${i}`,
      name: `Product ${(i * 7919) % PRODUCTS} ${wordOf(i)} ${wordOf(i * 7 + 3)}`,
      description: `A ${wordOf(i * 13 + 5)} for every day`,
      price: (i * 7919) % 100_000,
      brand: `Brand ${i % 40}`,
      categoryId: cats[i % 50].id,
      active: i % 20 !== 0,
      translations: {
        el: { name: `Προϊόν ${i} ${greekOf(i)} ${greekOf(i * 7 + 3)}`, slug: `el-idx-${i}` },
      },
    }));
    client = new pg.Client({ connectionString: t.testDatabase.url });
    await client.connect();
    await client.query('analyze');
  });
  after(async () => {
    await client?.end();
    await t?.close();
  });

  /** A value as an SQL literal for EXECUTE (the statement's parameter types apply to it). */
  function literal(value: unknown): string {
    if (value === null || value === undefined) return 'null';
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    const text = Array.isArray(value) ? `{${value.join(',')}}` : String(value);
    return `'${text.replace(/'/g, "''")}'`;
  }

  let prepared = 0;
  /**
   * The plan the service gets: its statements are named prepared statements planned generically
   * (PLAN_CACHE_MODE), so the statement is PREPAREd and its generic plan EXPLAINed.
   */
  async function plan(text: string, params: unknown[]): Promise<PlanNode> {
    if (process.env.SHOW_PLANS) {
      const name = `show_${++prepared}`;
      await client.query(`prepare ${name} as ${text}`);
      const args = params.length ? `(${params.map(literal).join(', ')})` : '';
      const res = await client.query(`explain execute ${name}${args}`);
      console.log(res.rows.map((r) => r['QUERY PLAN']).join('\n'));
      await client.query(`deallocate ${name}`);
    }
    const name = `plan_${++prepared}`;
    await client.query(`set plan_cache_mode = ${PLAN_CACHE_MODE}`);
    await client.query(`set random_page_cost = ${RANDOM_PAGE_COST}`);
    await client.query(`prepare ${name} as ${text}`);
    try {
      const args = params.length ? `(${params.map(literal).join(', ')})` : '';
      const res = await client.query(`explain (format json) execute ${name}${args}`);
      return (res.rows[0]['QUERY PLAN'] as { Plan: PlanNode }[])[0].Plan;
    } finally {
      await client.query(`deallocate ${name}`);
    }
  }

  test('when the service runs a statement, then its connection plans prepared statements generically', async () => {
    const [row] = await queryRows<{ plan_cache_mode: string }>(t.database.db, sql`show plan_cache_mode`);
    assert.equal(row.plan_cache_mode, PLAN_CACHE_MODE);
    const [cost] = await queryRows<{ random_page_cost: string }>(t.database.db, sql`show random_page_cost`);
    assert.equal(cost.random_page_cost, RANDOM_PAGE_COST);
  });

  /** Name, query, the locale read (default: the own fields), the locales served (default: en and el). */
  const cases: [string, Record<string, unknown>, (string | null)?, string[]?][] = [
    ['id', { id: '5000' }],
    ['sku', { sku: 'IDX-4242' }],
    ['slug', { slug: 'idx-4242' }],
    ['categoryId', { categoryId: '' }],
    ['brand', { brand: 'Brand 7' }],
    ['price range', { 'price[gte]': '50', 'price[lte]': '60' }],
    ['sort by price', { sort: 'price' }],
    ['sort by -price', { sort: '-price' }],
    ['sort by name', { sort: 'name' }],
    ['sort by -createdAt', { sort: '-createdAt' }],
    ['category sorted by price', { categoryId: '', sort: 'price' }],
    ['search, one word', { q: 'espresso' }],
    ['search, a short word', { q: 'mug' }],
    ['search, two words in any order', { q: 'lavazza espresso' }],
    ['search with a typo', { q: 'espreso' }],
    ['search, Greek and accents', { q: 'Καφές crème' }],
    ['sort by price, in el', { sort: 'price' }, 'el'],
    ['a category in el', { categoryId: '' }, 'el'],
    ['a Greek slug', { slug: 'el-idx-4242' }],
    ['a Greek slug, in el', { slug: 'el-idx-4242' }, 'el'],
    ['search in Greek, in el', { q: 'καφες' }, 'el'],
    ['search in Greek, two words, in el', { q: 'μυλος κουπα' }, 'el'],
    ['search in Greek with a typo, in el', { q: 'ζυγαρια βραστηρασ' }, 'el'],
    ['search in Greek sorted by price, in el', { q: 'τσαι', sort: '-price' }, 'el'],
    ['search sorted by price', { q: 'grinder', sort: '-price' }],
    ['search in a category subtree', { q: 'kettle', categoryId: '' }],
    ['search in Greek, el no longer served', { q: 'καφες' }, null, ['en']],
    ['search in Greek, two words, el no longer served', { q: 'μυλος κουπα' }, null, ['en']],
  ];

  for (const [name, raw, locale = null, served = ['en', 'el']] of cases) {
    for (const scope of ['public', 'backend'] as Scope[]) {
      test(`when filtering/sorting by ${name} (${scope}), then no sequential scan on product`, async () => {
        const query = { ...raw };
        if ('categoryId' in query) query.categoryId = String(categoryId);
        const caller: Caller =
          scope === 'public' ? { kind: 'guest' } : { kind: 'admin', sub: 'x', roles: [1] };
        const ctx: ReadContext = {
          db: t.database.db,
          config: t.config,
          caller,
          scope,
          settingsSource: t.app.settingsSource,
          translateTo: locale,
          servedLocales: served,
        };
        const listPlan = planOf(productResource, ctx, parseListQuery(productResource, query, scope));
        const values = { ...listPlan.values, limit: 15, page: 1 };
        // The one page statement every list, item and show runs.
        const page = pageStatement(t.database.db, listPlan).toSQL();
        assert.deepEqual(
          seqScans(await plan(page.sql, fillPlaceholders(page.params, values))),
          [],
          `page: ${page.sql}`,
        );
        if (!('sort' in raw) || Object.keys(raw).length > 1) {
          const count = countStatement(t.database.db, listPlan).toSQL();
          assert.deepEqual(
            seqScans(await plan(count.sql, fillPlaceholders(count.params, values))),
            [],
            `count: ${count.sql}`,
          );
        }
      });
    }
  }

  const facetCases: [string, Record<string, unknown>][] = [
    ['search', { q: 'espresso' }],
    ['search and a brand', { q: 'espresso', brand: 'Brand 7' }],
    ['search in a category subtree', { q: 'kettle', categoryId: '' }],
    ['search, an option and stock', { q: 'lavazza crema', 'option.Size': 'M', inStock: 'true' }],
  ];
  for (const [name, raw] of facetCases) {
    for (const scope of ['public', 'backend'] as Scope[]) {
      test(`when counting facets of a ${name} (${scope}), then no sequential scan on product`, async () => {
        const query = { ...raw };
        if ('categoryId' in query) query.categoryId = String(categoryId);
        const caller: Caller =
          scope === 'public' ? { kind: 'guest' } : { kind: 'admin', sub: 'x', roles: [1] };
        const ctx: ReadContext = {
          db: t.database.db,
          config: t.config,
          caller,
          scope,
          settingsSource: t.app.settingsSource,
          translateTo: null,
          servedLocales: ['en', 'el'],
        };
        const listPlan = planOf(productResource, ctx, parseListQuery(productResource, query, scope));
        const statement = facetsQuery(t.database.db, listPlan).toSQL();
        const values = listPlan.values;
        assert.deepEqual(
          seqScans(await plan(statement.sql, fillPlaceholders(statement.params, values))),
          [],
          statement.sql,
        );
      });
    }
  }
});
