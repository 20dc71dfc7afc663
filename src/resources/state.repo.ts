import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../db/client.ts';
import { readStatistics } from './repo.ts';

export interface RequestStateRows {
  settings: { key: string; value: unknown }[];
  versions: Map<string, string>;
}

/**
 * The stored settings and the table versions in ONE round trip: a list request needs both
 * (the page-size ceiling, the cached total's validity). Values travel as text so both engines
 * return the same thing.
 */
export async function readStateRows(db: Db): Promise<RequestStateRows> {
  readStatistics.statements++;
  const rows = await queryRows<{ kind: string; key: string; value: string }>(
    db,
    sql`select 's' as kind, key, value::text as value from setting
        union all
        select 'v' as kind, name as key, version::text as value from resource_version`,
  );
  const settings: { key: string; value: unknown }[] = [];
  const versions = new Map<string, string>();
  for (const row of rows) {
    if (row.kind === 'v') versions.set(row.key, row.value);
    else settings.push({ key: row.key, value: JSON.parse(row.value) as unknown });
  }
  return { settings, versions };
}
