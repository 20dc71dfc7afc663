import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { products, productVariants } from '../catalog/catalog.tables.ts';
import { customers } from '../customers/customer.tables.ts';

/**
 * Shopping carts. A guest cart is found by the sha256 of its token (the token itself is never stored);
 * a customer cart by its owner, one per customer. Exactly one of the two identifies a cart.
 */
export const carts = pgTable(
  'cart',
  {
    id: serial('id').primaryKey(),
    tokenHash: text('token_hash').unique('cart_token_hash_key'),
    customerId: integer('customer_id')
      .unique('cart_customer_id_key')
      .references(() => customers.id, { onDelete: 'cascade' }),
    couponCode: text('coupon_code'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('cart_owner_check', sql`(${t.tokenHash} is null) <> (${t.customerId} is null)`),
    index('cart_updated_at_idx').on(t.updatedAt),
  ],
);

export const CART_MAX_LINES = 200;

/** One variant in a cart; the price is never stored here: it is read live from the variant and its product. */
export const cartLines = pgTable(
  'cart_line',
  {
    cartId: integer('cart_id')
      .notNull()
      .references(() => carts.id, { onDelete: 'cascade' }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    variantId: integer('variant_id')
      .notNull()
      .references(() => productVariants.id, { onDelete: 'cascade' }),
    qty: integer('qty').notNull(),
    addedAt: timestamp('added_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'cart_line_pkey', columns: [t.cartId, t.variantId] }),
    check('cart_line_qty_check', sql`${t.qty} between 1 and 999`),
    // Deleting a product cascades to cart lines: without this index that would scan every cart.
    index('cart_line_product_idx').on(t.productId),
    index('cart_line_variant_idx').on(t.variantId),
  ],
);

export type CartRow = typeof carts.$inferSelect;
