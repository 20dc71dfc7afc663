import { sql } from 'drizzle-orm';
import {
  bigint,
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

/**
 * The token signing key generated at first start when no secret is configured. One row, shared
 * by every instance on the database, so no key written anywhere in the repository is ever used.
 */
export const signingKeys = pgTable(
  'auth_signing_key',
  {
    id: integer('id').primaryKey().default(1),
    secret: text('secret').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('auth_signing_key_single_row', sql`${t.id} = 1`)],
);

/**
 * Revoked sessions (refresh-token ids) in the order they were revoked. Every instance reads the
 * rows after the last id it has seen, so an access token of a revoked session is refused
 * everywhere within one poll interval; rows older than the access-token lifetime are pruned.
 */
export const sessionRevocations = pgTable(
  'auth_session_revocation',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    sessionId: bigint('session_id', { mode: 'number' }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('auth_session_revocation_revoked_at_idx').on(t.revokedAt)],
);
