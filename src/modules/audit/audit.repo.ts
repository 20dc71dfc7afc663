import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { auditLog } from './audit.tables.ts';

export interface AuditQuery {
  entity?: string;
  entityId?: string;
  actor?: string;
  limit: number;
  offset: number;
}

/** A page of the audit log, newest first, and how many entries match. */
export async function pageAudit(db: Db, q: AuditQuery) {
  const conditions: (SQL | undefined)[] = [
    q.entity === undefined ? undefined : eq(auditLog.entity, q.entity),
    q.entityId === undefined ? undefined : eq(auditLog.entityId, q.entityId),
    q.actor === undefined ? undefined : eq(auditLog.actor, q.actor),
  ];
  const where = and(...conditions);
  const rows = await db
    .select()
    .from(auditLog)
    .where(where)
    .orderBy(desc(auditLog.id))
    .limit(q.limit)
    .offset(q.offset);
  const [{ total }] = await db.select({ total: count() }).from(auditLog).where(where);
  return { rows, total };
}
