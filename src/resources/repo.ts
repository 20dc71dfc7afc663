import { and, eq, inArray, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client.ts';
import { relationKeys, withRelations } from './relations.ts';
import { jsonSelectionFor, orderFor, rankFor, visibility, whereFor } from './sql.ts';
import type { FieldInfo, ListPlan, Resource } from './types.ts';
import { isTranslatable, LOCALE_SETTINGS } from './translations.ts';
import { resourceVersions } from './versions.tables.ts';

// The statements of the generic resources. A read's statement is built from its plan only when
// its shape is new (read.service.ts names it by the shape, src/db/statements.ts prepares it once)
// and then executed with each request's values: no query building per request. Every read is
// bounded by LIMIT; counting never loads rows.

export type Row = Record<string, unknown>;

/** Every table's version as one JSON object, read inside another statement or alone (readVersions). */
export const versionsJson = sql<
  Record<string, string>
>`(select coalesce(json_object_agg(v.name, v.version::text), '{}'::json) from ${resourceVersions} v)`;

/**
 * The page size a statement applies, as SQL: the request clamped to the live ceiling
 * (`rest_max_page_size`), evaluated by the page's own statement, so no request waits on a separate
 * read of the settings. The default size (limit omitted or 0) is not clamped, and back-office
 * callers have no ceiling.
 */
function perPageOf(plan: ListPlan): SQL {
  const limit = sql.placeholder('limit');
  if (!plan.clamped) return sql`${limit}::int`;
  return sql`least(${limit}::int, ${plan.ctx.settingsSource.valueSql('rest_max_page_size', 'positiveInteger')})`;
}

/** Which rows a page holds: those of the plan, or the remembered ids of a ranked page, in that order. */
export type PageRows = 'planned' | 'byIds';

/**
 * The page's rows, sorted, limited and offset, each field rendered as the answer's JSON value.
 * A ranked order (search relevance) picks the page's ids first and renders only those rows: the
 * database would otherwise render every matching row before sorting them.
 */
function pageRows(db: Db, plan: ListPlan, rows: PageRows, perPage: SQL): SQL {
  const { resource, ctx, query } = plan;
  const selection = { ...jsonSelectionFor(resource, ctx), ...relationKeys(resource, query.with) };
  const table = resource.def.table;
  if (rows === 'byIds') {
    const ids = sql`${sql.placeholder('ids')}::bigint[]`;
    const byIds = db
      .select(selection)
      .from(table)
      .where(and(sql`${resource.idColumn} = any(${ids})`, ...visibility(resource, ctx)))
      .orderBy(sql`array_position(${ids}, ${resource.idColumn}::bigint)`);
    return sql`${byIds} limit ${perPage}`;
  }
  // A parenthesized select takes its LIMIT and OFFSET after it: they refer to the statement's size.
  const limited = (query: SQLWrapper) =>
    sql`${query} limit ${perPage} offset (${sql.placeholder('page')}::bigint - 1) * ${perPage}`;
  const where = whereFor(plan);
  const rank = rankFor(plan);
  const order = orderFor(resource, query.sort, rank, ctx);
  if (!rank)
    return limited(
      db
        .select(selection)
        .from(table)
        .where(where)
        .orderBy(...order),
    );
  const ids = limited(
    db
      .select({ id: resource.idColumn })
      .from(table)
      .where(where)
      .orderBy(...order),
  );
  return sql`${db
    .select(selection)
    .from(table)
    .where(sql`${resource.idColumn} = any(array(${ids}))`)
    .orderBy(...order)}`;
}

/**
 * The one page statement of every read (lists, item, show): the applied page size, the table
 * versions (for cached totals and remembered pages) and the page as the JSON text of the answer's
 * `data`, with its relations, each as one value read in one snapshot. The page keeps its order: it
 * is aggregated straight from the sorted, limited subquery. Unexecuted, the statement with its
 * placeholders (tests EXPLAIN it through `.toSQL()`).
 */
export function pageStatement(db: Db, basePlan: ListPlan, rows: PageRows = 'planned') {
  // The applied size is computed once by the statement (it may read a setting), and the page's
  // limit and offset, (page - 1) × size, refer to it; so are the values fields share (`shared`).
  const perPage = sql`one.per_page`;
  const shared = new Map<string, SQL>();
  const plan: ListPlan = {
    ...basePlan,
    ctx: {
      ...basePlan.ctx,
      shared: (name, value) => {
        shared.set(name, value);
        return sql.raw(`one.shared_${name}`);
      },
    },
  };
  const inner = pageRows(db, plan, rows, perPage);
  const tree = plan.query.with;
  const page =
    tree.size === 0
      ? inner
      : sql`select ${withRelations(plan.resource, plan.ctx, tree, 'rel0', 1)} from (${inner}) rel0`;
  const sharedColumns = [...shared].map(([name, value]) => sql`, ${value} as ${sql.raw(`shared_${name}`)}`);
  return (
    db
      .select({
        perPage: sql<number>`${perPage}`,
        versions: versionsJson,
        rows: sql<string>`(select coalesce(json_agg(p), '[]'::json)::text from (${page}) p)`,
        // The locale settings, read in the same snapshot: the read settles its locale from them.
        locales: sql<Record<string, unknown> | null>`${
          isTranslatable(plan.resource) ? plan.ctx.settingsSource.storedSql(LOCALE_SETTINGS) : sql`null::json`
        }`,
      })
      // OFFSET 0 keeps the planner from pulling `one` up into its uses, each reading the setting.
      .from(sql`(select ${perPageOf(plan)} as per_page${sql.join(sharedColumns)} offset 0) as one`)
  );
}

/** The count of a plan's rows (its filters, search and visibility), unexecuted. */
export function countStatement(db: Db, plan: ListPlan) {
  return db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(plan.resource.def.table)
    .where(whereFor(plan));
}

/** Values are keyed by the table's column keys. */
export async function insertRow(db: Db, resource: Resource, values: Row): Promise<number> {
  const rows = await db.insert(resource.def.table).values(values).returning({ id: resource.idColumn });
  return Number(rows[0]?.id);
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

function auditedSelection(resource: Resource, fields: readonly FieldInfo[]): Record<string, PgColumn | SQL> {
  const selection: Record<string, PgColumn | SQL> = { id: resource.idColumn };
  for (const f of fields) {
    if (f.column) selection[f.name] = f.codec.select ? f.codec.select(f.column) : f.column;
  }
  return selection;
}

function shownAudited(row: Row, fields: readonly FieldInfo[]): Row {
  const shown: Row = {};
  for (const f of fields) {
    const value = row[f.name];
    shown[f.name] = f.codec.fromDb && value !== null && value !== undefined ? f.codec.fromDb(value) : value;
  }
  return shown;
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
  const query = db.select(auditedSelection(resource, fields)).from(resource.def.table).where(eq(resource.idColumn, id));
  const [row] = lock ? await query.for(lock) : await query;
  return row ? shownAudited(row, fields) : null;
}

/** selectAudited of several rows in one statement (a batch's creates), by id. */
export async function selectAuditedMany(
  db: Db,
  resource: Resource,
  ids: readonly number[],
  fields: readonly FieldInfo[],
): Promise<Map<number, Row>> {
  const rows = await db
    .select(auditedSelection(resource, fields))
    .from(resource.def.table)
    .where(inArray(resource.idColumn, [...ids]));
  return new Map(rows.map((row) => [Number(row.id), shownAudited(row, fields)]));
}
