import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client.ts';

/** The ids above a category, nearest first (bounded, so a corrupt cycle cannot loop). */
export async function ancestorIds(db: Db, categoryId: number): Promise<number[]> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`with recursive up(id, parent_id, depth) as (
          select id, parent_id, 0 from category where id = ${categoryId}
          union all
          select c.id, c.parent_id, up.depth + 1 from category c join up on c.id = up.parent_id where up.depth < 100
        )
        select id from up where depth > 0`,
  );
  return rows.map((r) => Number(r.id));
}
