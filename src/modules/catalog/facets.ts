import { createHash } from 'node:crypto';
import { and, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { runJson } from '../../db/statements.ts';
import {
  filterConditions,
  type ListPlan,
  localizedValue,
  planList,
  type RequestContext,
  readVersions,
  searchCondition,
  settledLocale,
  VersionedCache,
  versionsJson,
  visibility,
} from '../../resources/index.ts';
import { categories, products, productVariants } from './catalog.tables.ts';
import { categoryResource } from './category.resource.ts';
import { productResource } from './product.resource.ts';
import { catalogPriceSql, nextSaleChangeJson } from './sale-price.ts';

// Facet counts for the product list (docs/discovery.md): one statement
// takes the list's filters and q and answers every facet. The products that pass the caller's
// visibility, q and the filters no facet owns are read once (a materialized CTE, through the
// trigram index when q is given); each of them carries one flag per facet-owned filter, and every
// facet counts the rows whose flags other than its own hold. So choosing a brand narrows the
// categories, the price range and the stock count, but not the list of brands.

/** Which facet a filter belongs to (its own filter does not narrow it), by field name. */
const FACET_OF_FIELD: Record<string, Facet> = {
  brand: 'brand',
  categoryId: 'category',
  price: 'price',
  inStock: 'inStock',
};

type Facet = 'brand' | 'category' | 'price' | 'inStock';
const FACETS: readonly Facet[] = ['brand', 'category', 'price', 'inStock'];

/** At most this many values per facet list (the most frequent first). */
export const MAX_FACET_VALUES = 100;

export interface Facets {
  brand: { value: string; count: number }[];
  category: { id: number; name: string; count: number }[];
  price: { min: number | null; max: number | null };
  inStock: { count: number };
  options: Record<string, { value: string; count: number }[]>;
}

function flag(conditions: SQL[]): SQL {
  return conditions.length ? sql`(${and(...conditions)})` : sql`true`;
}

/** The flag columns of the matched rows: one per facet, one per option filter (`f_opt<i>`). */
interface Flags {
  facets: Map<Facet, SQL[]>;
  /** Option filters by index in the query: their flag is `f_opt<i>`, their name the placeholder `f<i>a`. */
  options: number[];
}

/** The rows whose flags hold, for every facet but `own` (options: every option flag). */
function othersHold(flags: Flags, own: Facet | null): SQL {
  const facets = FACETS.filter((f) => f !== own).map((f) => sql.raw(`m.f_${f.toLowerCase()}`));
  const options = own === null ? [] : flags.options.map((i) => sql.raw(`m.f_opt${i}`));
  return sql.join([...facets, ...options, sql`true`], sql` and `);
}

/** For the options facet of the option a row names: every option flag except that option's own. */
function otherOptionsHold(flags: Flags): SQL {
  const parts = flags.options.map(
    (i) => sql`(${sql.raw(`m.f_opt${i}`)} or kv.key = ${sql.placeholder(`f${i}a`)}::text)`,
  );
  return sql.join([...parts, sql`true`], sql` and `);
}

/** The facets statement of a product list's plan, unexecuted (the plan test EXPLAINs it through `.toSQL()`). */
export function facetsQuery(db: Db, plan: ListPlan) {
  const { ctx } = plan;
  const conditions = filterConditions(plan);
  const flags: Flags = { facets: new Map(FACETS.map((f) => [f, []])), options: [] };
  const optionFlags: SQL[] = [];
  const shared: SQL[] = [];
  plan.query.filters.forEach((filter, i) => {
    const facet = FACET_OF_FIELD[filter.field.name];
    if (facet) flags.facets.get(facet)?.push(conditions[i]);
    else if (filter.arg !== undefined) {
      flags.options.push(i);
      optionFlags.push(sql`${conditions[i]} as ${sql.raw(`f_opt${i}`)}`);
    } else shared.push(conditions[i]);
  });
  const where = and(...visibility(productResource, ctx), ...shared, searchCondition(plan));
  const columns = [
    ...FACETS.map((f) => sql`${flag(flags.facets.get(f) ?? [])} as ${sql.raw(`f_${f.toLowerCase()}`)}`),
    ...optionFlags,
  ];
  const matched = sql`select ${products.id} as id, ${products.brand} as brand, ${products.categoryId} as category_id,
      ${ctx.scope === 'backend' ? products.price : catalogPriceSql(products.price)} as price, ${products.inStock} as in_stock,
      jsonb_array_length(${products.options}) > 0 as has_options, ${sql.join(columns, sql`, `)}
    from ${products} where ${where ?? sql`true`}`;
  const limit = sql.raw(String(MAX_FACET_VALUES));
  const activeCategory = ctx.scope === 'backend' ? sql`true` : sql`${categories.active}`;
  const categoryName = localizedValue(categoryResource, 'name', ctx);
  const facets = sql`with m as materialized (${matched})
    select json_build_object(
      'brand', (select coalesce(json_agg(json_build_object('value', b.brand, 'count', b.n) order by b.n desc, b.brand), '[]'::json)
        from (select m.brand, count(*) as n from m where m.brand is not null and ${othersHold(flags, 'brand')}
              group by m.brand order by n desc, m.brand limit ${limit}) b),
      'category', (select coalesce(json_agg(json_build_object('id', ${categories.id}, 'name', ${categoryName}, 'count', k.n) order by k.n desc, ${categoryName}, ${categories.id}), '[]'::json)
        from (select m.category_id, count(*) as n from m where m.category_id is not null and ${othersHold(flags, 'category')}
              group by m.category_id order by n desc, m.category_id limit ${limit}) k
        join ${categories} on ${categories.id} = k.category_id and ${activeCategory}),
      'price', (select json_build_object('min', min(m.price) * 0.01, 'max', max(m.price) * 0.01)
        from m where ${othersHold(flags, 'price')}),
      'inStock', json_build_object('count', (select count(*) from m where m.in_stock and ${othersHold(flags, 'inStock')})),
      'options', (select coalesce(json_object_agg(o.name, o.vals order by o.name), '{}'::json) from (
          select x.name, json_agg(json_build_object('value', x.value, 'count', x.n) order by x.n desc, x.value) as vals
          from (select kv.key as name, kv.value, count(distinct m.id) as n
                from m join ${productVariants} v on m.has_options and v.product_id = m.id and v.active
                cross join jsonb_each_text(v.options) kv
                where ${othersHold(flags, null)} and ${otherOptionsHold(flags)}
                group by kv.key, kv.value) x
          group by x.name) o)
    ) as facets`;
  // The table versions in the same snapshot, for the cached facets (see productFacets), and when a
  // catalog promotion next starts or ends (the price range changes then without a write).
  return db
    .select({ facets: sql<Facets>`facets`, versions: versionsJson, nextSaleChange: nextSaleChangeJson })
    .from(sql`(${facets}) as f`);
}

/** The name of a facets statement: one per shape of the list's plan (filters, search, scope). */
function nameOf(plan: ListPlan): string {
  return `facets_${createHash('sha1').update(`facets|${plan.shape}`).digest('hex').slice(0, 24)}`;
}

/**
 * Facets are kept per query and answered again while the tables they count keep their versions:
 * a category page asks the same facets for every visitor, and counting the whole catalog costs the
 * database milliseconds. Products (in stock, options included: migration 0022), categories and
 * variants each bump their version on a change the counts can see.
 */
const FACET_TABLES = ['product', 'category', 'product_variant', 'promotion'] as const;
const cachedFacets = new VersionedCache<{ version: string; facets: Facets; until: number | null }>();

function facetsVersion(versions: Record<string, string>): string {
  return FACET_TABLES.map((table) => versions[table] ?? '0').join('.');
}

/** The facets of the product list the query string describes, as the caller may see it. */
export async function productFacets(rctx: RequestContext, raw: Record<string, unknown>): Promise<Facets> {
  const plan = planList(productResource, rctx, raw, await settledLocale(rctx));
  // No key for filters on values that change without a version (stock, sale, variant options).
  const key = plan.countKey && `facets|${plan.countKey}`;
  const kept = key ? cachedFacets.get(rctx.db, key) : undefined;
  const fresh = kept && (kept.until === null || Date.now() < kept.until);
  if (fresh && kept.version === facetsVersion(await readVersions(rctx.db))) return kept.facets;

  const [row] = await runJson<{ facets: Facets; versions: Record<string, string>; nextSaleChange: string | null }>(
    rctx.db,
    nameOf(plan),
    (db) => facetsQuery(db, plan),
    ['facets', 'versions', 'nextSaleChange'],
    plan.values,
    plan.once,
  );
  const until = row.nextSaleChange === null ? null : Date.parse(row.nextSaleChange);
  if (key) cachedFacets.set(rctx.db, key, { version: facetsVersion(row.versions), facets: row.facets, until });
  return row.facets;
}
