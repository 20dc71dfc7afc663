import { bigserial, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Back-office writes: who (the admin token's `sub`), when, what (an action on an entity) and the
 * fields it changed as `{field: {before, after}}`. Written in the transaction of the write, so a
 * write that rolls back leaves no row, and a row always describes a committed change.
 */
/** What a write changed, field by field (secrets as "changed"). */
export type Changes = Record<string, { before: unknown; after: unknown }>;

export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    actor: text('actor').notNull(),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entityId: text('entity_id').notNull(),
    changes: jsonb('changes').$type<Changes>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('audit_log_entity_idx').on(t.entity, t.entityId, t.id),
    index('audit_log_actor_idx').on(t.actor, t.id),
  ],
);

export type AuditRow = typeof auditLog.$inferSelect;
