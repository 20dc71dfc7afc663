import { and, getTableName, type SQL, sql } from 'drizzle-orm';
import { type PgColumn, QueryBuilder } from 'drizzle-orm/pg-core';
import type { WithTree } from './list-query.ts';
import { type Row, selectByKeys } from './repo.ts';
import { toJsonRows } from './rows.ts';
import { customerParam, jsonSelectionFor, orderFor, selectionFor, shapeKey, visibility } from './sql.ts';
import {
  columnOf,
  type FieldInfo,
  fieldOf,
  type ReadContext,
  type RelationDef,
  type Resource,
  relationOf,
} from './types.ts';

// Embeds `with=` relations, in one of two ways with the same visibility (a guest never gets an
// inactive category through a product) and the same fields (the target's readable ones):
// - in the page's own statement (storefront lists): each relation is a column of the page's JSON,
//   rendered by a subquery correlated with the row, so the page still comes as the answer's text;
// - after the rows are read (items, back-office lists, and a relation of a table to itself, whose
//   subquery could not tell the row from its related row): ONE query per relation for the whole
//   page (WHERE key IN (...)), never one per row; nested relations recurse on the loaded rows.

/** Bound of related rows of one `many` relation: per page after the read, per row in the statement. */
const MANY_LIMIT = 1000;

/** The fields of `resource` that the requested relations read their keys from. */
export function relationKeyFields(resource: Resource, tree: WithTree): FieldInfo[] {
  const keys: FieldInfo[] = [];
  for (const name of tree.keys()) {
    const rel = relationOf(resource, name);
    if (rel.kind !== 'many') keys.push(fieldOf(resource, rel.key));
  }
  return keys;
}

function uniqueKeys(rows: Row[], rel: RelationDef): unknown[] {
  const keys = new Set<unknown>();
  for (const row of rows) {
    const value = row[rel.kind === 'many' ? 'id' : rel.key];
    if (Array.isArray(value)) for (const v of value) keys.add(v);
    else if (value !== null && value !== undefined) keys.add(value);
  }
  return [...keys];
}

function attach(rows: Row[], name: string, rel: RelationDef, related: Row[]): void {
  if (rel.kind === 'many') {
    const groups = new Map<unknown, Row[]>();
    for (const r of related) {
      const list = groups.get(r[rel.key]);
      if (list) list.push(r);
      else groups.set(r[rel.key], [r]);
    }
    for (const row of rows) row[name] = groups.get(row.id) ?? [];
    return;
  }
  const byId = new Map(related.map((r) => [r.id, r]));
  for (const row of rows) {
    const key = row[rel.key];
    if (rel.kind === 'one') row[name] = key === null || key === undefined ? null : (byId.get(key) ?? null);
    else row[name] = Array.isArray(key) ? key.map((k) => byId.get(k)).filter((r) => r !== undefined) : [];
  }
}

async function embedOne(ctx: ReadContext, resource: Resource, rows: Row[], name: string, sub: WithTree) {
  const rel = relationOf(resource, name);
  const target = rel.target();
  const keys = uniqueKeys(rows, rel);
  let related: Row[] = [];
  if (keys.length > 0) {
    const keyField = fieldOf(target, rel.kind === 'many' ? rel.key : 'id');
    const extra = [keyField, ...relationKeyFields(target, sub)];
    related = await selectByKeys(ctx.db, target, {
      shape: shapeKey(target, ctx, { filters: [], search: null, sort: target.defaultSort }, extra),
      build: () => ({
        selection: selectionFor(target, ctx, extra),
        key: keyField.column as PgColumn,
        where: visibility(target, ctx),
        order: orderFor(target, target.defaultSort),
      }),
      values: {
        keys,
        limit: rel.kind === 'many' ? (rel.limit ?? MANY_LIMIT) : keys.length,
        customerId: customerParam(ctx),
      },
    });
    toJsonRows(target, ctx, related);
    await embedRelations(ctx, target, related, sub);
  }
  attach(rows, name, rel, related);
}

export async function embedRelations(ctx: ReadContext, resource: Resource, rows: Row[], tree: WithTree) {
  if (tree.size === 0 || rows.length === 0) return;
  await Promise.all([...tree].map(([name, sub]) => embedOne(ctx, resource, rows, name, sub)));
}

/** False when some relation in the tree joins a table to itself (see the top of this file). */
export function embeddableInSql(resource: Resource, tree: WithTree): boolean {
  for (const [name, sub] of tree) {
    const target = relationOf(resource, name).target();
    if (getTableName(target.def.table) === getTableName(resource.def.table)) return false;
    if (!embeddableInSql(target, sub)) return false;
  }
  return true;
}

/**
 * The page's JSON fields and one more per requested relation: the related row (or null), or the
 * array of related rows, as the JSON the answer shows. Only for trees that embeddableInSql.
 */
export function jsonSelectionWithRelations(
  resource: Resource,
  ctx: ReadContext,
  tree: WithTree,
): Record<string, SQL.Aliased> {
  const selection = jsonSelectionFor(resource, ctx);
  for (const [name, sub] of tree) selection[name] = relationJson(resource, ctx, name, sub).as(name);
  return selection;
}

const builder = new QueryBuilder();

/** The source row's column, qualified: inside the subquery an unqualified name is the target's. */
function sourceColumn(resource: Resource, field: string): SQL {
  const column = columnOf(fieldOf(resource, field));
  return sql`${sql.identifier(getTableName(resource.def.table))}.${sql.identifier(column.name)}`;
}

function relationJson(source: Resource, ctx: ReadContext, name: string, sub: WithTree): SQL {
  const rel = relationOf(source, name);
  const target = rel.target();
  const targetId = target.idColumn;
  const related = (match: SQL, limit?: number) => {
    const query = builder
      .select(jsonSelectionWithRelations(target, ctx, sub))
      .from(target.def.table)
      .where(and(match, ...visibility(target, ctx)))
      .orderBy(...orderFor(target, target.defaultSort));
    return limit === undefined ? query : query.limit(limit);
  };
  switch (rel.kind) {
    case 'one':
      return sql`(select row_to_json(r) from (${related(sql`${targetId} = ${sourceColumn(source, rel.key)}`, 1)}) r)`;
    case 'many':
      return sql`(select coalesce(json_agg(r), '[]'::json) from (${related(
        sql`${columnOf(fieldOf(target, rel.key))} = ${sourceColumn(source, 'id')}`,
        rel.limit ?? MANY_LIMIT,
      )}) r)`;
    case 'ids': {
      const keys = sourceColumn(source, rel.key);
      // In the order of the source's array, as the service-side embedding answers them.
      return sql`(select coalesce(json_agg(r order by array_position(${keys}::bigint[], r.id::bigint)), '[]'::json)
        from (${related(sql`${targetId} = any(${keys})`)}) r)`;
    }
  }
}

/** The part of a statement's shape a relation tree decides. */
export function relationsShape(tree: WithTree): string {
  return [...tree].map(([name, sub]) => (sub.size > 0 ? `${name}(${relationsShape(sub)})` : name)).join(',');
}
