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
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { transports } from './shipping.tables.ts';

/** Postal rules of a zone: prefixes ("84") or ranges ("84000-84999"). */
export interface PostalRules {
  include: string[];
  exclude: string[];
}

/** One weight band of a rate as written: up to `upToKg` the parcel costs `price` (decimal, gross). */
export interface WeightBandJson {
  upToKg: number;
  price: number;
}

/** Where a parcel goes: countries, optionally narrowed by regions and postal rules (docs/shipping-and-tax.md). */
export const shippingZones = pgTable(
  'shipping_zone',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    /** ISO 3166-1 alpha-2, upper case. */
    countries: text('countries').array().notNull(),
    /** County codes (the address's countyAlpha); empty: the whole country. */
    regions: text('regions').array().notNull().default(sql`'{}'::text[]`),
    postalCodes: jsonb('postal_codes')
      .$type<PostalRules>()
      .notNull()
      .default(sql`'{"include":[],"exclude":[]}'::jsonb`),
    /** Among equally specific zones that match, the higher priority wins. */
    priority: integer('priority').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('shipping_zone_countries_check', sql`cardinality(${t.countries}) > 0`)],
);

/** What one transport costs in one zone; money in cents, the bands' prices as written (decimals). */
export const shippingRates = pgTable(
  'shipping_rate',
  {
    id: serial('id').primaryKey(),
    transportId: integer('transport_id')
      .notNull()
      .references(() => transports.id, { onDelete: 'cascade' }),
    zoneId: integer('zone_id')
      .notNull()
      .references(() => shippingZones.id, { onDelete: 'restrict' }),
    price: integer('price').notNull(),
    freeShippingThreshold: integer('free_shipping_threshold'),
    weightBands: jsonb('weight_bands').$type<WeightBandJson[]>().notNull().default(sql`'[]'::jsonb`),
    overweightPricePerKg: integer('overweight_price_per_kg').notNull().default(0),
    codFee: integer('cod_fee').notNull().default(0),
    active: boolean('active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('shipping_rate_transport_zone_key').on(t.transportId, t.zoneId),
    index('shipping_rate_zone_idx').on(t.zoneId),
    check(
      'shipping_rate_money_check',
      sql`${t.price} >= 0 and ${t.overweightPricePerKg} >= 0 and ${t.codFee} >= 0 and coalesce(${t.freeShippingThreshold}, 0) >= 0`,
    ),
  ],
);

/** Destination VAT: the rate of each tax class per country (setting tax_mode "destination"). */
export const taxRates = pgTable(
  'tax_rate',
  {
    id: serial('id').primaryKey(),
    countryAlpha2: text('country_alpha2').notNull(),
    taxClass: text('tax_class').notNull(),
    rate: numeric('rate', { precision: 5, scale: 2, mode: 'number' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('tax_rate_country_class_key').on(t.countryAlpha2, t.taxClass),
    check(
      'tax_rate_check',
      sql`${t.taxClass} in ('standard', 'reduced', 'super_reduced', 'zero') and ${t.rate} between 0 and 100`,
    ),
  ],
);
