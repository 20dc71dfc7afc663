import { translations } from '../../db/columns.ts';
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  numeric,
  pgTable,
  serial,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';

/** Shipping methods; money in cents. */
export const transports = pgTable(
  'transport',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    price: integer('price').notNull(),
    /** Merchandise total (after the coupon) from which shipping is free; null: never free. */
    freeShippingThreshold: integer('free_shipping_threshold'),
    includedWeightKg: numeric('included_weight_kg', { precision: 10, scale: 3, mode: 'number' })
      .notNull()
      .default(0),
    overweightPricePerKg: integer('overweight_price_per_kg').notNull().default(0),
    /** Cash-on-delivery fee (payWay "delivery"). */
    codFee: integer('cod_fee').notNull().default(0),
    /** VAT class of shipping under destination VAT; null: the rate of the cart's main goods (docs/checkout.md). */
    taxClass: text('tax_class'),
    position: integer('position').notNull().default(0),
    active: boolean('active').notNull().default(true),
    translations: translations(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('transport_position_idx').on(t.position, t.id),
    check(
      'transport_money_check',
      sql`${t.price} >= 0 and ${t.overweightPricePerKg} >= 0 and ${t.codFee} >= 0 and coalesce(${t.freeShippingThreshold}, 0) >= 0`,
    ),
    check(
      'transport_tax_class_check',
      sql`${t.taxClass} is null or ${t.taxClass} in ('standard', 'reduced', 'super_reduced', 'zero')`,
    ),
  ],
);
