import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client.ts';
import type { Selection } from './sql.ts';
import type { Resource } from './types.ts';

// The statements of the generic resources. Every read is bounded by LIMIT; counting never
// loads rows.

export type Row = Record<string, unknown>;

export interface PageRequest {
  selection: Selection;
  where: SQL | undefined;
  order: SQL[];
  limit: number;
  offset: number;
}

/** The page statement, unexecuted (tests EXPLAIN it through `.toSQL()`). */
export function pageQuery(db: Db, resource: Resource, page: PageRequest) {
  const query = db
    .select(page.selection)
    .from(resource.def.table)
    .where(page.where)
    .orderBy(...page.order)
    .limit(page.limit);
  return page.offset > 0 ? query.offset(page.offset) : query;
}

export async function selectRows(db: Db, resource: Resource, page: PageRequest): Promise<Row[]> {
  return (await pageQuery(db, resource, page)) as Row[];
}

export function countQuery(db: Db, resource: Resource, where: SQL | undefined) {
  return db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(resource.def.table)
    .where(where);
}

export async function countRows(db: Db, resource: Resource, where: SQL | undefined): Promise<number> {
  const rows = await countQuery(db, resource, where);
  return rows[0]?.n ?? 0;
}

/** Rows whose `key` column is one of `keys`: one statement for a whole page's relation. */
export async function selectByKeys(
  db: Db,
  resource: Resource,
  request: { selection: Selection; key: PgColumn; keys: unknown[]; where: SQL[]; order: SQL[]; limit: number },
): Promise<Row[]> {
  return db
    .select(request.selection)
    .from(resource.def.table)
    .where(and(inArray(request.key, request.keys), ...request.where))
    .orderBy(...request.order)
    .limit(request.limit) as Promise<Row[]>;
}

/** Values are keyed by the table's column keys. */
export async function insertRow(db: Db, resource: Resource, values: Row): Promise<number> {
  const rows = await db
    .insert(resource.def.table)
    .values(values)
    .returning({ id: resource.idColumn });
  return rows[0].id as number;
}

/** Updates one row the caller may reach (`where`); false when there is none. */
export async function updateRow(db: Db, resource: Resource, id: number, values: Row, where: SQL[]): Promise<boolean> {
  const rows = await db
    .update(resource.def.table)
    .set(values)
    .where(and(eq(resource.idColumn, id), ...where))
    .returning({ id: resource.idColumn });
  return rows.length > 0;
}

export async function deleteRow(db: Db, resource: Resource, id: number, where: SQL[]): Promise<boolean> {
  const rows = await db
    .delete(resource.def.table)
    .where(and(eq(resource.idColumn, id), ...where))
    .returning({ id: resource.idColumn });
  return rows.length > 0;
}
