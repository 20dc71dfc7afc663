import { hash } from 'node:crypto';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client.ts';
import { ONE_ROW, run, runJson } from '../db/statements.ts';
import type { Selection } from './sql.ts';
import type { FieldInfo, Resource } from './types.ts';
import { resourceVersions } from './versions.tables.ts';

// The statements of the generic resources. Reads are prepared once per shape (the SQL text
// depends only on which filters, sort and scope a request uses) and then executed with the
// request's values (src/db/statements.ts): no query building per request, and PostgreSQL keeps the
// named statement. Every read is bounded by LIMIT; counting never loads rows.

export type Row = Record<string, unknown>;

/** Every table's version as one JSON object, read inside another statement or alone (readVersions). */
export const versionsJson = sql<
  Record<string, string>
>`(select coalesce(json_object_agg(v.name, v.version::text), '{}'::json) from ${resourceVersions} v)`;

/** The statement name of a shape: one name is one SQL text. */
function nameOf(kind: string, shape: string): string {
  return `rs_${hash('sha1', `${kind}|${shape}`, 'hex').slice(0, 24)}`;
}

/** What a page statement is built from; only called when its shape is not prepared yet. */
export interface PageParts {
  selection: Selection;
  /** The same fields aliased to their names, for pages read as JSON (see jsonSelectionFor). */
  jsonSelection: Record<string, SQL.Aliased>;
  where: SQL | undefined;
  order: SQL[];
  /**
   * Pick the page's ids first, then render its rows: for an order by an expression (search
   * relevance) the database would otherwise render every matching row before sorting them.
   */
  idsFirst?: boolean;
}

/** The rows of `parts` limited and offset as asked: the page itself, or only its ids first (idsFirst). */
function pageRows(
  db: Db,
  resource: Resource,
  parts: PageParts,
  selection: Selection | PageParts['jsonSelection'],
  limit: number,
  offset: number,
) {
  if (!parts.idsFirst) {
    return db
      .select(selection)
      .from(resource.def.table)
      .where(parts.where)
      .orderBy(...parts.order)
      .limit(limit)
      .offset(offset);
  }
  const ids = db
    .select({ id: resource.idColumn })
    .from(resource.def.table)
    .where(parts.where)
    .orderBy(...parts.order)
    .limit(limit)
    .offset(offset);
  return db
    .select(selection)
    .from(resource.def.table)
    .where(sql`${resource.idColumn} = any(array(${ids}))`)
    .orderBy(...parts.order);
}

export interface PageRequest {
  /** Everything that changes the SQL text (see shapeKey). */
  shape: string;
  build: () => PageParts;
  /** Placeholder values (filters, search, customerId; see paramValues). */
  values: Record<string, unknown>;
  limit: number;
  offset: number;
  /** Run unnamed and not kept: the shape holds a value seen once (a search's words). */
  once?: boolean;
}

/** The page statement with placeholders, unexecuted (tests EXPLAIN it through `.toSQL()`). */
export function pageQuery(
  db: Db,
  resource: Resource,
  parts: PageParts,
  selection: Selection | PageParts['jsonSelection'] = parts.selection,
) {
  return pageRows(
    db,
    resource,
    parts,
    selection,
    sql.placeholder('limit') as unknown as number,
    sql.placeholder('offset') as unknown as number,
  );
}

export function selectRows(db: Db, resource: Resource, page: PageRequest): Promise<Row[]> {
  return run(
    db,
    nameOf('page', page.shape),
    (on) => pageQuery(on, resource, page.build()),
    { ...page.values, limit: page.limit, offset: page.offset },
    page.once,
  ) as Promise<Row[]>;
}

/** A storefront list's read: the applied size, the table versions, the page (and settings for parsed rows). */
export interface PageWithState<R = Row[]> {
  /** The page size the statement applied (the request clamped to the live ceiling). */
  perPage: number;
  /**
   * The stored settings, as the settings source's `storedJson` answered them; read only for rows
   * that come parsed (their relations are embedded afterwards, with the settings' switched fields).
   */
  settings?: unknown;
  /** resource_version: table name → version (as text). */
  versions: Record<string, string>;
  /** The page's JSON rows: parsed, or as the JSON text of the array (an answer's `data` as it stands). */
  rows: R;
}

export type RowsAs = 'json' | 'text';

/**
 * The storefront list's one round trip: applied size, table versions and the page, each as one json
 * value, read in one snapshot. Per 15-row page on PostgreSQL this costs 0.11 ms of server CPU and
 * 0.33 ms of database CPU, against 0.41 and 0.25 ms for the same reads as two row statements
 * (docs/resources.md); PGlite pays per statement. The page keeps its order: it is aggregated
 * straight from the sorted, limited subquery. `text` leaves the page as JSON text, to be sent as
 * it is: the service then neither parses nor serializes a row.
 */
export function statePageQuery(
  db: Db,
  resource: Resource,
  parts: PageParts,
  state: { settingsJson: SQL; perPage: SQL },
  rowsAs: RowsAs = 'json',
) {
  // The applied size is computed once by the statement (it reads a setting), and the page's
  // limit and offset, (page - 1) × size, refer to it.
  const perPage = sql`one.per_page`;
  const inner = pageRows(
    db,
    resource,
    parts,
    parts.jsonSelection,
    perPage as unknown as number,
    sql`(${sql.placeholder('page')}::bigint - 1) * ${perPage}` as unknown as number,
  );
  return (
    db
      .select({
        perPage: sql<number>`${perPage}`,
        // A page of text has its switched fields evaluated by the statement: it needs no settings.
        ...(rowsAs === 'json' ? { settings: sql<unknown>`${state.settingsJson}` } : {}),
        versions: versionsJson,
        rows:
          rowsAs === 'text'
            ? sql<string>`(select coalesce(json_agg(p), '[]'::json)::text from (${inner}) p)`
            : sql<Row[]>`(select coalesce(json_agg(p), '[]'::json) from (${inner}) p)`,
      })
      // OFFSET 0 keeps the planner from pulling `one` up into its three uses, each reading the setting.
      .from(sql`(select ${state.perPage} as per_page offset 0) as one`)
  );
}

export async function selectPageWithState<A extends RowsAs>(
  db: Db,
  resource: Resource,
  page: PageRequest & { state: () => { settingsJson: SQL; perPage: SQL }; pageNumber: number },
  rowsAs: A,
): Promise<PageWithState<A extends 'text' ? string : Row[]>> {
  type Read = PageWithState<A extends 'text' ? string : Row[]>;
  const [read] = await runJson<Read & Row>(
    db,
    nameOf(`state+page|${rowsAs}`, page.shape),
    (on) => statePageQuery(on, resource, page.build(), page.state(), rowsAs) as never,
    rowsAs === 'json' ? ['perPage', 'settings', 'versions', 'rows'] : ['perPage', 'versions', 'rows'],
    { ...page.values, limit: page.limit, page: page.pageNumber },
    page.once,
  );
  return { ...read, perPage: Number(read.perPage) };
}

/** resource_version as table name → version (as text): what a cached value is checked against. */
export async function readVersions(db: Db): Promise<Record<string, string>> {
  const [row] = await runJson<{ versions: Record<string, string> }>(
    db,
    'resource_versions',
    (on) => on.select({ versions: versionsJson }).from(ONE_ROW) as never,
    ['versions'],
  );
  return row.versions;
}

export function countQuery(db: Db, resource: Resource, where: SQL | undefined) {
  return db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(resource.def.table)
    .where(where);
}

export async function countRows(
  db: Db,
  resource: Resource,
  count: { shape: string; where: () => SQL | undefined; values: Record<string, unknown>; once?: boolean },
): Promise<number> {
  const rows = (await run(
    db,
    nameOf('count', count.shape),
    (on) => countQuery(on, resource, count.where()),
    count.values,
    count.once,
  )) as { n: number }[];
  return rows[0]?.n ?? 0;
}

/** Rows whose `key` column is one of `keys`: one statement for a whole page's relation. */
export async function selectByKeys(
  db: Db,
  resource: Resource,
  request: {
    shape: string;
    build: () => { selection: Selection; key: PgColumn; where: SQL[]; order: SQL[] };
    values: Record<string, unknown>;
  },
): Promise<Row[]> {
  const build = (on: Db) => {
    const parts = request.build();
    return on
      .select(parts.selection)
      .from(resource.def.table)
      .where(and(sql`${parts.key} = any(${sql.placeholder('keys')})`, ...parts.where))
      .orderBy(...parts.order)
      .limit(sql.placeholder('limit'));
  };
  return (await run(db, nameOf('keys', request.shape), build, request.values)) as Row[];
}

/** Values are keyed by the table's column keys. */
export async function insertRow(db: Db, resource: Resource, values: Row): Promise<number> {
  const rows = await db.insert(resource.def.table).values(values).returning({ id: resource.idColumn });
  return rows[0].id as number;
}

/** Updates one row the caller may reach (`where`); false when there is none. */
export async function updateRow(
  db: Db,
  resource: Resource,
  id: number,
  values: Row,
  where: SQL[],
): Promise<boolean> {
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

/**
 * One row's stored values of these fields as the API shows them (money as decimals, ISO dates),
 * for the audit log; `lock` holds the row until the write commits, so its "before" stays exact
 * under concurrent writes. Null when there is no such row.
 */
export async function selectAudited(
  db: Db,
  resource: Resource,
  id: number,
  fields: readonly FieldInfo[],
  lock: 'update' | 'no key update' | null,
): Promise<Row | null> {
  const selection: Record<string, PgColumn | SQL> = { id: resource.idColumn };
  for (const f of fields) {
    if (f.column) selection[f.name] = f.codec.select ? f.codec.select(f.column) : f.column;
  }
  const query = db.select(selection).from(resource.def.table).where(eq(resource.idColumn, id));
  const [row] = lock ? await query.for(lock) : await query;
  if (!row) return null;
  const shown: Row = {};
  for (const f of fields) {
    const value = row[f.name];
    shown[f.name] = f.codec.fromDb && value !== null && value !== undefined ? f.codec.fromDb(value) : value;
  }
  return shown;
}
