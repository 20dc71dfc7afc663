import { index, integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { timestamps } from '../../db/columns.ts';

/** An uploaded image: its stored original (metadata stripped) and what answers say about it. */
export const mediaAssets = pgTable(
  'media_asset',
  {
    id: serial('id').primaryKey(),
    /** The name in the asset's URL: made safe from the uploaded name, never used as a path. */
    fileName: text('file_name').notNull(),
    /** jpeg, png, webp, avif or gif, as recognised from the bytes. */
    format: text('format').notNull(),
    mimeType: text('mime_type').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    /** Size of the stored original. */
    bytes: integer('bytes').notNull(),
    alt: text('alt').notNull().default(''),
    /** The address an import fetched it from (null: uploaded); an import finds it again by it. */
    sourceUrl: text('source_url'),
    ...timestamps,
  },
  (t) => [
    index('media_asset_created_idx').on(t.createdAt, t.id),
    index('media_asset_source_url_idx').on(t.sourceUrl),
  ],
);
