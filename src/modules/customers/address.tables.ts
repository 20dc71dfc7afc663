import { boolean, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { products } from '../catalog/catalog.tables.ts';
import { customers } from './customer.tables.ts';

/** Customers' delivery addresses; a customer only ever reaches their own (owner filter in SQL). */
export const addresses = pgTable(
  'address',
  {
    id: serial('id').primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    label: text('label'),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    company: text('company'),
    phone: text('phone'),
    street: text('street').notNull(),
    city: text('city').notNull(),
    countyAlpha: text('county_alpha'),
    countryAlpha2: text('country_alpha2').notNull(),
    postalCode: text('postal_code').notNull(),
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('address_customer_idx').on(t.customerId, t.id)],
);

/** Wishlists: one row per (customer, product). */
export const wishlistItems = pgTable(
  'wishlist_item',
  {
    id: serial('id').primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    addedAt: timestamp('added_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('wishlist_item_customer_product_key').on(t.customerId, t.productId),
    index('wishlist_item_product_idx').on(t.productId),
  ],
);
