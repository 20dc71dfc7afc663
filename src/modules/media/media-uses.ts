import { getTableName, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { type Db, queryRows } from '../../db/client.ts';

/**
 * A table whose rows show uploaded images: its `media` column holds them (MediaRef[]). The
 * owners (catalog, cms) declare theirs and the module list hands them to the media module, so an
 * image in use is found in the owners' own rows, exactly, and media imports neither.
 */
export interface MediaUse {
  /** How the usage names the owner: product, variant, slide, reel. */
  owner: string;
  table: PgTable;
  column: PgColumn;
}

export interface Usage {
  owner: string;
  id: number;
}

function usesSql(use: MediaUse, assetIds: number[]): SQL {
  const table = sql.identifier(getTableName(use.table));
  const column = sql.identifier(use.column.name);
  return sql`select distinct ${use.owner}::text as owner, t.id, (e->>'id')::int as asset_id
    from ${table} t, jsonb_array_elements(t.${column}) e
    where (e->>'id')::int = any(${`{${assetIds.join(',')}}`}::int[])`;
}

/** Who shows each of these images (ids are integers: the array travels as one text value), by asset id (the owners' rows as they are now). */
export async function usageOf(
  db: Db,
  uses: readonly MediaUse[],
  assetIds: number[],
): Promise<Map<number, Usage[]>> {
  const byAsset = new Map<number, Usage[]>(assetIds.map((id) => [id, []]));
  if (assetIds.length === 0 || uses.length === 0) return byAsset;
  const union = sql.join(
    uses.map((u) => usesSql(u, assetIds)),
    sql` union all `,
  );
  const rows = await queryRows<{ owner: string; id: number; asset_id: number }>(
    db,
    sql`${union} order by 1, 2`,
  );
  for (const row of rows) byAsset.get(Number(row.asset_id))?.push({ owner: row.owner, id: Number(row.id) });
  return byAsset;
}
