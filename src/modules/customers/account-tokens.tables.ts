import { sql } from 'drizzle-orm';
import { bigserial, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { customers } from './customer.tables.ts';

export type AccountTokenPurpose = 'password_reset' | 'email_verification';

/**
 * Single-use codes e-mailed to a customer (password reset, e-mail verification). Only the
 * SHA-256 of a code is kept, so a copy of the database opens no account.
 */
export const customerAccountToken = pgTable(
  'customer_account_token',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    purpose: text('purpose').$type<AccountTokenPurpose>().notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('customer_account_token_customer_idx').on(t.customerId).where(sql`used_at is null`)],
);
