import { and, type SQL, sql } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import { jsonSelectionFor, orderFor, visibility } from './sql.ts';
import type { ReadContext, RelationDef, Resource, WithTree } from './types.ts';

// `with=` relations, rendered by the page's own statement: each relation is one more column of
// the page's JSON, a subquery correlated with the row, built from the target's readable fields and
// visibility (a guest never gets an inactive category through a product). The rows a relation
// hangs on are first selected under an alias of their own (`rel<depth>`), with the keys the
// relations read as extra columns: a relation of a table to itself (a category's parent) then
// tells the row from its related row, which inside the subquery has the table's own name.

/** Bound of related rows of one `many` relation, per row. */
const MANY_LIMIT = 1000;

const builder = new QueryBuilder();

function relationOf(resource: Resource, name: string): RelationDef {
  const rel = resource.def.relations?.[name];
  if (!rel) throw new Error(`${resource.name}: no relation ${name}`);
  return rel;
}

/** The column a relation reads its key from, under a name no field has. */
function keyAlias(field: string): string {
  return `key:${field}`;
}

/** The fields the relations of `tree` read on the source row (for `many`, its id). */
function keyFields(resource: Resource, tree: WithTree): string[] {
  const keys = new Set<string>();
  for (const name of tree.keys()) {
    const rel = relationOf(resource, name);
    keys.add(rel.kind === 'many' ? 'id' : rel.key);
  }
  return [...keys];
}

/** The key columns of `tree`'s relations, to select with the rows they hang on. */
export function relationKeys(resource: Resource, tree: WithTree): Record<string, SQL.Aliased> {
  return Object.fromEntries(
    keyFields(resource, tree).map((name) => {
      const column = resource.field.get(name)?.column;
      if (!column) throw new Error(`${resource.name}.${name}: a relation key must be a column`);
      return [keyAlias(name), sql`${column}`.as(keyAlias(name))];
    }),
  );
}

/**
 * The select list over the aliased rows `rows` (selected with relationKeys): the readable fields
 * as they are, then one JSON column per relation of `tree`.
 */
export function withRelations(
  resource: Resource,
  ctx: ReadContext,
  tree: WithTree,
  rows: string,
  depth: number,
): SQL {
  const fields = resource.readable[ctx.scope].map(
    (f) => sql`${sql.identifier(rows)}.${sql.identifier(f.name)}`,
  );
  const relations = [...tree].map(
    ([name, sub]) => sql`${relationJson(resource, ctx, name, sub, rows, depth)} as ${sql.identifier(name)}`,
  );
  return sql.join([...fields, ...relations], sql`, `);
}

/** The source row's key column, by its alias in the aliased rows. */
function sourceKey(rows: string, field: string): SQL {
  return sql`${sql.identifier(rows)}.${sql.identifier(keyAlias(field))}`;
}

/** The related rows of one relation as JSON objects, with their own relations in turn. */
function relatedRows(
  target: Resource,
  ctx: ReadContext,
  sub: WithTree,
  match: SQL,
  depth: number,
  limit?: number,
) {
  const inner = builder
    .select({ ...jsonSelectionFor(target, ctx), ...relationKeys(target, sub) })
    .from(target.def.table)
    .where(and(match, ...visibility(target, ctx)))
    .orderBy(...orderFor(target, target.defaultSort, undefined, ctx));
  const limited = limit === undefined ? inner : inner.limit(limit);
  if (sub.size === 0) return sql`${limited}`;
  const rows = `rel${depth}`;
  return sql`select ${withRelations(target, ctx, sub, rows, depth + 1)} from (${limited}) ${sql.identifier(rows)}`;
}

function relationJson(
  source: Resource,
  ctx: ReadContext,
  name: string,
  sub: WithTree,
  rows: string,
  depth: number,
) {
  const rel = relationOf(source, name);
  const target = rel.target();
  const targetId = target.idColumn;
  switch (rel.kind) {
    case 'one': {
      const related = relatedRows(target, ctx, sub, sql`${targetId} = ${sourceKey(rows, rel.key)}`, depth, 1);
      return sql`(select row_to_json(r) from (${related}) r)`;
    }
    case 'many': {
      const key = target.field.get(rel.key)?.column;
      if (!key) throw new Error(`${target.name}.${rel.key}: a relation key must be a column`);
      const match = sql`${key} = ${sourceKey(rows, 'id')}`;
      const related = relatedRows(target, ctx, sub, match, depth, rel.limit ?? MANY_LIMIT);
      return sql`(select coalesce(json_agg(r), '[]'::json) from (${related}) r)`;
    }
    case 'ids': {
      const keys = sourceKey(rows, rel.key);
      const related = relatedRows(target, ctx, sub, sql`${targetId} = any(${keys})`, depth);
      // In the order of the source's array.
      return sql`(select coalesce(json_agg(r order by array_position(${keys}::bigint[], r.id::bigint)), '[]'::json)
        from (${related}) r)`;
    }
  }
}
