import { jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** The settings registry: only keys an operator has changed are stored; the rest take their defaults. */
export const settings = pgTable('setting', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The fallback (configuration file, else registry default) of the settings the database's own code
 * reads (DATABASE_SETTINGS in settings.service.ts), written at every start: a trigger reads a stored
 * setting first, then this, so a value given only in the configuration file counts there too.
 */
export const settingDefaults = pgTable('setting_default', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
});
