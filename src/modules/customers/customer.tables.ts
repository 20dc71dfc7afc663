import { sql } from 'drizzle-orm';
import { boolean, check, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * Storefront customers. The e-mail is stored trimmed and lower-cased; the unique index on
 * lower(email) makes the database the judge of "already registered", also under races.
 */
export const customers = pgTable(
  'customer',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    phone: text('phone'),
    newsletter: boolean('newsletter').notNull().default(false),
    /** The locale of the customer's e-mails (docs/translations.md); null: the shop's default. */
    locale: text('locale'),
    loyaltyPoints: integer('loyalty_points').notNull().default(0),
    active: boolean('active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('customer_email_key').on(sql`lower(${t.email})`),
    check('customer_loyalty_points_check', sql`${t.loyaltyPoints} >= 0`),
  ],
);

export type CustomerRow = typeof customers.$inferSelect;

/**
 * Customers who registered while verification was required, until they confirm their address:
 * a row with no `verified_at` keeps place-order closed to them.
 */
export const customerEmailVerification = pgTable('customer_email_verification', {
  customerId: integer('customer_id')
    .primaryKey()
    .references(() => customers.id, { onDelete: 'cascade' }),
  verifiedAt: timestamp('verified_at', { withTimezone: true }),
});
