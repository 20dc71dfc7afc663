import { sql } from 'drizzle-orm';
import { jsonb, timestamp } from 'drizzle-orm/pg-core';

/** created_at and updated_at, both set by the database when a row is written (spread into a table). */
export const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

/**
 * The texts of a table's translatable fields in locales other than the default, `{"el": {"name":
 * "…"}}` (docs/translations.md); a builder per table (drizzle binds a column builder to one table).
 * A translatable JSON field holds JSON (a product's options in a locale), the others text.
 */
export function translations() {
  return jsonb('translations')
    .$type<Record<string, Record<string, unknown>>>()
    .notNull()
    .default(sql`'{}'::jsonb`);
}
