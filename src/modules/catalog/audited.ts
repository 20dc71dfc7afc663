import { eq } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import { fromCents } from '../../lib/money.ts';
import type { ResourceHooks, Values, WriteContext } from '../../resources/index.ts';
import { changedFields, recordAudit } from '../audit/audit.ts';

// Back-office writes of prices and stock kept in the audit log (docs/orders.md, "Audit"): a
// resource's hooks wrapped so the audited columns are read before and after the write, in its
// transaction, and an admin's change of them recorded with both values. The values are read as
// stored after the write (a trigger's or another hook's doing included); money as decimals.

export interface AuditSpec {
  entity: string;
  table: PgTable;
  id: PgColumn;
  columns: Record<string, PgColumn>;
  /** Columns holding cents, shown as decimals. */
  money: readonly string[];
}

async function readAudited(db: Db, spec: AuditSpec, id: number): Promise<Record<string, unknown> | null> {
  const [row] = await db.select(spec.columns).from(spec.table).where(eq(spec.id, id)).limit(1);
  if (!row) return null;
  const shown: Record<string, unknown> = { ...row };
  for (const key of spec.money) {
    if (typeof shown[key] === 'number') shown[key] = fromCents(shown[key] as number);
  }
  return shown;
}

export function audited(hooks: ResourceHooks, spec: AuditSpec): ResourceHooks {
  const before = new WeakMap<Values, Record<string, unknown> | null>();
  const touches = (values: Values) => Object.keys(values).some((k) => Object.hasOwn(spec.columns, k));
  const actorOf = (ctx: WriteContext) => (ctx.caller.kind === 'admin' ? ctx.caller.sub : null);
  return {
    async beforeWrite(ctx, values, op, id) {
      await hooks.beforeWrite?.(ctx, values, op, id);
      if (op === 'update' && actorOf(ctx) && touches(values))
        before.set(values, await readAudited(ctx.db, spec, id!));
    },
    async afterWrite(ctx, id, values, op) {
      await hooks.afterWrite?.(ctx, id, values, op);
      const actor = actorOf(ctx);
      if (!actor || (op === 'update' && !before.has(values))) return;
      const after = await readAudited(ctx.db, spec, id);
      if (!after) return;
      await recordAudit(ctx.db, {
        actor,
        action: op,
        entity: spec.entity,
        entityId: id,
        changes: changedFields(before.get(values) ?? null, after),
      });
    },
  };
}
