import { isDeepStrictEqual } from 'node:util';
import type { Db } from '../../db/client.ts';
import type { AuditedWrite } from '../../resources/index.ts';
import { auditLog, type Changes } from './audit.tables.ts';

// The narrow door other modules write the audit log through (docs/orders.md, "Audit"). The audit
// module imports no other module, so any module may call it without making a cycle.

export type { Changes };

export interface AuditEntry {
  /** The admin token's `sub`. */
  actor: string;
  /** What was done, e.g. `update`, `transition`, `refund`. */
  action: string;
  /** What it was done to, e.g. `setting`, `product`, `order`. */
  entity: string;
  entityId: string | number;
  changes: Changes;
}

/**
 * The fields of `after` whose value differs from `before`, with both values. A field missing from
 * `before` was not set (null). Pure: the callers decide what before and after hold.
 */
export function changedFields(
  before: Readonly<Record<string, unknown>> | null,
  after: Readonly<Record<string, unknown>>,
): Changes {
  const changes: Changes = {};
  for (const [field, value] of Object.entries(after)) {
    if (value === undefined) continue;
    const old = before?.[field] ?? null;
    if (!isDeepStrictEqual(old, value)) changes[field] = { before: old, after: value };
  }
  return changes;
}

/**
 * Records a back-office write; pass the transaction of the write, so the entry commits with it or
 * not at all. An entry whose changes are empty is not written (a write that changed nothing).
 */
export async function recordAudit(db: Db, entry: AuditEntry): Promise<void> {
  if (Object.keys(entry.changes).length === 0) return;
  await db.insert(auditLog).values({ ...entry, entityId: String(entry.entityId) });
}

/** Every field a deleted row held, from its value to null. */
export function removedFields(before: Readonly<Record<string, unknown>>): Changes {
  const changes: Changes = {};
  for (const [field, value] of Object.entries(before)) {
    if (value !== null && value !== undefined) changes[field] = { before: value, after: null };
  }
  return changes;
}

/**
 * The resource framework's writes (src/resources/write.service.ts), passed to it by the app; a
 * batch of writes (an import's creates) is kept in one statement.
 */
export async function recordWrite(db: Db, writes: AuditedWrite | readonly AuditedWrite[]): Promise<void> {
  const entries = (Array.isArray(writes) ? writes : [writes]).flatMap(({ before, after, ...entry }: AuditedWrite) => {
    const changes = after ? changedFields(before, after) : removedFields(before ?? {});
    return Object.keys(changes).length === 0 ? [] : [{ ...entry, entityId: String(entry.entityId), changes }];
  });
  if (entries.length > 0) await db.insert(auditLog).values(entries);
}
