import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  serial,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { timestamps, translations } from '../../db/columns.ts';
import type { PromotionAction, PromotionConditions } from '../pricing/promotion-rules.ts';

/**
 * Promotions (docs/promotions.md). `kind` catalog lowers the prices shown and charged (through
 * catalog_sale below); `kind` cart applies in the quote.
 * `conditions` and `action` are kept as the API writes them (money as decimals), validated by
 * their schemas on write; the pure rules in pricing/promotion-rules.ts read them.
 */
export const promotions = pgTable(
  'promotion',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    kind: text('kind', { enum: ['catalog', 'cart'] }).notNull(),
    conditions: jsonb('conditions').$type<PromotionConditions>().notNull().default({}),
    action: jsonb('action').$type<PromotionAction>().notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    /** Higher first; an exclusive promotion stops every one of lower priority. */
    priority: integer('priority').notNull().default(0),
    exclusive: boolean('exclusive').notNull().default(false),
    combinesWithCoupons: boolean('combines_with_coupons').notNull().default(true),
    usageLimit: integer('usage_limit'),
    /** Uses counted against usageLimit (only a limited promotion's; place-order's guarded UPDATE). */
    usedCount: integer('used_count').notNull().default(0),
    active: boolean('active').notNull().default(true),
    translations: translations(),
    ...timestamps,
  },
  (t) => [
    index('promotion_kind_idx').on(t.kind, t.active),
    check('promotion_kind_check', sql`${t.kind} in ('catalog', 'cart')`),
    check('promotion_window_check', sql`${t.endsAt} is null or ${t.startsAt} is null or ${t.endsAt} > ${t.startsAt}`),
    check('promotion_used_count_check', sql`${t.usedCount} >= 0`),
  ],
);

/**
 * Each active catalog promotion as a price read applies it (docs/promotions.md, "Performance"):
 * its conditions as typed arrays, its categories with every category below them. Written only by
 * the triggers of promotion and category (src/db/functions/catalog_sale_sync.sql), so a read
 * takes the running ones against now() in one small scan per statement instead of reading the
 * promotions and walking the category tree for every price of every row.
 */
export const catalogSales = pgTable('catalog_sale', {
  promotionId: integer('promotion_id')
    .primaryKey()
    .references(() => promotions.id, { onDelete: 'cascade' }),
  startsAt: timestamp('starts_at', { withTimezone: true }),
  endsAt: timestamp('ends_at', { withTimezone: true }),
  /** Null: any product (the condition is absent or empty); likewise brands and categories. */
  productIds: integer('product_ids').array(),
  brands: text('brands').array(),
  categoryIds: integer('category_ids').array(),
  percent: boolean('percent').notNull(),
  /** The percentage, or the amount off in the shop's currency (a decimal, as the action holds it). */
  value: numeric('value').notNull(),
});

/**
 * The categories an active catalog promotion may cover, in one row kept with catalog_sale: a price
 * read calls sale_price only for a product in one of them, every other price is the stored one
 * (docs/promotions.md, "Performance"). Every active catalog promotion counts, running or not, so
 * a sale that starts or ends needs no write here; null when one of them has no category list (it
 * may cover any product).
 */
export const catalogSaleCover = pgTable('catalog_sale_cover', {
  categoryIds: integer('category_ids').array(),
});

/** Which promotions an order used and for how much (cents): what usage limits give back and reports read. */
export const promotionRedemptions = pgTable(
  'promotion_redemption',
  {
    promotionId: integer('promotion_id')
      .notNull()
      .references(() => promotions.id, { onDelete: 'cascade' }),
    /** The order (a plain id: promotions sit below orders, so no foreign key). */
    orderId: integer('order_id').notNull(),
    amount: integer('amount').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('promotion_redemption_order_idx').on(t.orderId),
    index('promotion_redemption_promotion_idx').on(t.promotionId, t.createdAt),
  ],
);

export type PromotionRow = typeof promotions.$inferSelect;
