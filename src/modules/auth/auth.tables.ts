import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  check,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/** Back-office users kept in the database; static users from configuration take precedence at login. */
export const adminUsers = pgTable(
  'admin_user',
  {
    id: serial('id').primaryKey(),
    username: text('username').notNull(),
    passwordHash: text('password_hash').notNull(),
    name: text('name').notNull().default(''),
    roles: integer('roles').array().notNull().default(sql`'{}'::integer[]`),
    active: boolean('active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('admin_user_username_key').on(sql`lower(${t.username})`)],
);

export type AdminUserRow = typeof adminUsers.$inferSelect;

/**
 * Refresh tokens, stored only as the sha256 of the opaque token. `subject` is the access
 * token's `sub` (customer id, database admin id, or `static:<username>`).
 */
export const refreshTokens = pgTable(
  'refresh_token',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tokenHash: text('token_hash').notNull().unique('refresh_token_token_hash_key'),
    context: text('context', { enum: ['admin', 'customer'] }).notNull(),
    subject: text('subject').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('refresh_token_subject_idx').on(t.context, t.subject),
    check('refresh_token_context_check', sql`${t.context} in ('admin', 'customer')`),
  ],
);

export type RefreshTokenRow = typeof refreshTokens.$inferSelect;
