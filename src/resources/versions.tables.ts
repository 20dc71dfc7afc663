import { bigint, pgTable, text } from 'drizzle-orm/pg-core';

/**
 * One counter per table whose list totals are cached: triggers bump it on every insert, delete,
 * truncate or update of a filterable column, also for writes made directly in SQL, once per
 * transaction (drizzle/0024_version_once_per_transaction.sql). A cached total is reused only while
 * the counter is unchanged, so totals stay exact on every instance. A missing row reads as version 0.
 */
export const resourceVersions = pgTable('resource_version', {
  name: text('name').primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
  /** The transaction (64-bit id) that last moved the counter: a later write of it moves it no more. */
  writtenBy: bigint('written_by', { mode: 'number' }),
});
