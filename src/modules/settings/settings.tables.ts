import { jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** The settings registry: only keys an operator has changed are stored; the rest take their defaults. */
export const settings = pgTable('setting', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
