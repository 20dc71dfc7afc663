import { boolean, index, integer, jsonb, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { timestamps, translations } from '../../db/columns.ts';
import type { MediaRef } from '../media/media-ref.ts';

/** Video reels of the storefront, optionally showing products. */
export const reels = pgTable(
  'reel',
  {
    id: serial('id').primaryKey(),
    title: text('title').notNull(),
    videoUrl: text('video_url').notNull(),
    posterUrl: text('poster_url'),
    /** Uploaded images (docs/media.md); the first is the poster when posterUrl is not given. */
    media: jsonb('media').$type<MediaRef[]>().notNull().default(sql`'[]'::jsonb`),
    productIds: integer('product_ids').array().notNull().default(sql`'{}'::integer[]`),
    position: integer('position').notNull().default(0),
    active: boolean('active').notNull().default(true),
    translations: translations(),
    ...timestamps,
  },
  (t) => [index('reel_position_idx').on(t.position, t.id)],
);

export const sliderGroups = pgTable(
  'slider_group',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    code: text('code').notNull(),
    active: boolean('active').notNull().default(true),
    ...timestamps,
  },
  (t) => [uniqueIndex('slider_group_code_key').on(t.code)],
);

export const sliders = pgTable(
  'slider',
  {
    id: serial('id').primaryKey(),
    groupId: integer('group_id')
      .notNull()
      .references(() => sliderGroups.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    subtitle: text('subtitle'),
    imageUrl: text('image_url').notNull(),
    /** Uploaded images (docs/media.md); the first gives imageUrl when it is not given. */
    media: jsonb('media').$type<MediaRef[]>().notNull().default(sql`'[]'::jsonb`),
    linkUrl: text('link_url'),
    position: integer('position').notNull().default(0),
    active: boolean('active').notNull().default(true),
    translations: translations(),
    ...timestamps,
  },
  (t) => [index('slider_group_position_idx').on(t.groupId, t.position, t.id)],
);
