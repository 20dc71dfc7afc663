import { sql } from 'drizzle-orm';
import { bigserial, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { adminUsers } from '../auth/auth.tables.ts';

export type AdminTokenPurpose = 'invitation' | 'password_reset';

/**
 * Single-use codes e-mailed to a back-office user (an invitation to choose a first password, a
 * password reset asked by an Admin). Nobody sets another admin's password; the owner chooses it
 * with one of these. Only the SHA-256 of a code is kept.
 */
export const adminAccountToken = pgTable(
  'admin_account_token',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    adminUserId: integer('admin_user_id')
      .notNull()
      .references(() => adminUsers.id, { onDelete: 'cascade' }),
    purpose: text('purpose').$type<AdminTokenPurpose>().notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('admin_account_token_admin_idx').on(t.adminUserId).where(sql`used_at is null`)],
);
