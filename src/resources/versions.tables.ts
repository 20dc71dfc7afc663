import { bigint, pgTable, text } from 'drizzle-orm/pg-core';

/**
 * One counter per table whose list totals are cached: statement-level triggers bump it on every
 * insert, delete, truncate or update of a filterable column, also for writes made directly in
 * SQL. A cached total is reused only while the counter is unchanged, so totals stay exact on
 * every instance. A missing row reads as version 0.
 */
export const resourceVersions = pgTable('resource_version', {
  name: text('name').primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
});
