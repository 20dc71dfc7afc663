import { type SQL, sql } from 'drizzle-orm';
import { Type } from '@sinclair/typebox';
import type { ReadContext } from '../../resources/index.ts';

// The category tree in SQL: a category's subtree (categoryId=N matches N and every descendant)
// and its ancestors (the breadcrumb `path`). Both walk category.parent_id (index
// category_parent_idx) with a bound on depth, so a corrupt cycle cannot loop; the product side
// is then an index scan of product_category_idx over the subtree's ids (docs/discovery.md).

const MAX_DEPTH = 100;

/**
 * The ids of the categories `value` names (one id for eq, an array for in) and all their
 * descendants, as an array for `category_id = any(…)`.
 */
export function subtreeIds(op: 'eq' | 'in', value: SQL): SQL {
  const roots = op === 'eq' ? sql`r.id = ${value}` : sql`r.id = any(${value})`;
  return sql`array(with recursive sub(id, depth) as (
      select r.id, 0 from category r where ${roots}
      union all
      select c.id, sub.depth + 1 from category c join sub on c.parent_id = sub.id where sub.depth < ${sql.raw(String(MAX_DEPTH))}
    ) select id from sub)`;
}

export const CategoryPathItem = Type.Object(
  { id: Type.Integer(), name: Type.String(), slug: Type.String() },
  { additionalProperties: false },
);

/**
 * The ancestors of the row's category from the root down, `[{id, name, slug}]` (the category
 * itself not included). The storefront sees only active ones, as it sees only active categories.
 */
export function ancestorsPath(ctx: ReadContext): SQL {
  const shown = ctx.scope === 'backend' ? sql`true` : sql`up.active`;
  return sql`(with recursive up(id, name, slug, active, parent_id, depth) as (
      select a.id, a.name, a.slug, a.active, a.parent_id, 1 from category a where a.id = "category"."parent_id"
      union all
      select c.id, c.name, c.slug, c.active, c.parent_id, up.depth + 1 from category c join up on c.id = up.parent_id where up.depth < ${sql.raw(String(MAX_DEPTH))}
    ) select coalesce(json_agg(json_build_object('id', up.id, 'name', up.name, 'slug', up.slug) order by up.depth desc), '[]'::json)
      from up where ${shown})`;
}
