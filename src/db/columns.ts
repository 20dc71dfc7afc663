import { timestamp } from 'drizzle-orm/pg-core';

/** created_at and updated_at, both set by the database when a row is written (spread into a table). */
export const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};
