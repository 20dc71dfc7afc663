import type { PgColumn } from 'drizzle-orm/pg-core';
import type { WithTree } from './list-query.ts';
import { type Row, selectByKeys } from './repo.ts';
import { toJsonRows } from './rows.ts';
import { customerParam, orderFor, selectionFor, shapeKey, visibility } from './sql.ts';
import type { FieldInfo, ReadContext, RelationDef, Resource } from './types.ts';

// Embeds `with=` relations: ONE query per relation for the whole page (WHERE key IN (...)),
// never one per row; nested relations recurse on the loaded rows. The target's visibility
// applies (a guest never gets an inactive category through a product).

/** Bound of related rows loaded by one `many` relation for a page. */
const MANY_LIMIT = 1000;

/** The fields of `resource` that the requested relations read their keys from. */
export function relationKeyFields(resource: Resource, tree: WithTree): FieldInfo[] {
  const keys: FieldInfo[] = [];
  for (const name of tree.keys()) {
    const rel = resource.def.relations![name];
    if (rel.kind !== 'many') keys.push(resource.field.get(rel.key)!);
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
  const rel = resource.def.relations![name];
  const target = rel.target();
  const keys = uniqueKeys(rows, rel);
  let related: Row[] = [];
  if (keys.length > 0) {
    const keyField = rel.kind === 'many' ? target.field.get(rel.key)! : target.field.get('id')!;
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
