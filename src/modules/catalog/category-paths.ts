import { sql } from 'drizzle-orm';
import { KeptCopy } from '../../resources/index.ts';

// Each category's path (itself and every category above it), kept between requests for the quote,
// whose cart promotions' conditions match a product by any category of its path. The tree (id and
// parent of each category) is read again only when the quote's statement sees another version of
// the category table; a lookup in SQL per line cost a plpgsql loop each.

/** Deeper than this is a cycle: the path stops (as category_path did). */
const MAX_DEPTH = 32;

const categoryParentsJson = sql`(select coalesce(json_agg(json_build_array(c.id, c.parent_id)), '[]')
  from category c)`;

/** Category id → its path, from [id, parent] pairs. */
export function pathsOf(pairs: readonly [number, number | null][]): Map<number, number[]> {
  const parent = new Map(pairs);
  const paths = new Map<number, number[]>();
  for (const [id] of pairs) {
    const path: number[] = [];
    for (let at: number | null | undefined = id; at != null && path.length < MAX_DEPTH; at = parent.get(at)) {
      path.push(at);
    }
    paths.set(id, path);
  }
  return paths;
}

export const categoryPaths = new KeptCopy('categoryPaths', ['category'], categoryParentsJson, pathsOf);

/** The path of a product's category (empty without one). */
export function pathOf(paths: ReadonlyMap<number, number[]>, categoryId: number | null): number[] {
  return categoryId === null ? [] : (paths.get(categoryId) ?? [categoryId]);
}
