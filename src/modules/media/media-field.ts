import { Type } from '@sinclair/typebox';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../http/errors.ts';
import { type FieldDef, field, INT32_MAX, type ResourceHooks, type Values } from '../../resources/index.ts';
import { holdAssets } from './media.repo.ts';
import type { MediaRef } from './media-ref.ts';
import { assetUrl, srcsetOf } from './media-urls.ts';

// What an owner (product, variant, slide, reel) writes: `media: [{assetId, alt?}]`, the order
// being the position (the first is the main image); what it reads: the images resolved when it
// was written, with what an <img srcset> needs, so reads join nothing.

const MEDIA_MAX = 20;

export const MediaInput = Type.Array(
  Type.Object(
    {
      assetId: Type.Integer({ minimum: 1, maximum: INT32_MAX }),
      alt: Type.Optional(Type.String({ maxLength: 500, description: "Default: the image's own alt text" })),
    },
    { additionalProperties: false },
  ),
  { maxItems: MEDIA_MAX, description: 'Uploaded images in order; the first is the main one' },
);

export const MediaOutput = Type.Array(
  Type.Object({
    id: Type.Integer(),
    url: Type.String(),
    alt: Type.String(),
    width: Type.Integer(),
    height: Type.Integer(),
    srcset: Type.String({ description: 'The resized copies, for <img srcset>' }),
  }),
);

/** The `media` field of an owner's resource, over its jsonb column of MediaRef. */
export function mediaField(column: PgColumn): FieldDef {
  const def = field.json(column, MediaOutput, { create: 'optional' });
  return { ...def, codec: { ...def.codec, input: MediaInput } };
}

interface MediaEntry {
  assetId: number;
  alt?: string;
}

/**
 * A beforeWrite step of an owner: `values.media` as written ([{assetId, alt}]) becomes what is
 * stored and read (MediaRef[]); the assets are held until the write commits, so none is deleted
 * under it. An unknown asset → 422. `images` (the URLs) follows the media unless the write sets it.
 */
export async function resolveMedia(
  db: Db,
  values: Values,
  /** Where `values.media` is in the body, for the error's field names (a nested variant's). */
  at = 'media',
): Promise<MediaRef[] | undefined> {
  if (!Array.isArray(values.media)) return undefined;
  const entries = values.media as MediaEntry[];
  const assets = new Map(
    (await holdAssets(db, [...new Set(entries.map((e) => e.assetId))])).map((a) => [a.id, a]),
  );
  const refs = entries.map((entry, i): MediaRef => {
    const asset = assets.get(entry.assetId);
    if (!asset) {
      throw new AppError('UNKNOWN_ASSET', `${at} ${i}: no image ${entry.assetId}`, [
        { field: `${at}.${i}.assetId`, message: 'names no uploaded image' },
      ]);
    }
    return {
      id: asset.id,
      url: assetUrl(asset),
      alt: entry.alt ?? asset.alt,
      width: asset.width,
      height: asset.height,
      srcset: srcsetOf(asset),
    };
  });
  values.media = refs;
  return refs;
}

/**
 * An owner's hooks with its media resolved first. `urlField` is the owner's URL field that
 * follows the media when a write does not set it: `images` takes every URL, a single URL field
 * (a slide's imageUrl, a reel's posterUrl) the first.
 */
export function withMedia(
  urlField: { name: string; list: boolean },
  hooks: ResourceHooks = {},
): ResourceHooks {
  return {
    ...hooks,
    async beforeWrite(ctx, values, op, id) {
      const refs = await resolveMedia(ctx.db, values);
      if (refs && values[urlField.name] === undefined && (urlField.list || refs.length > 0)) {
        values[urlField.name] = urlField.list ? refs.map((r) => r.url) : refs[0].url;
      }
      await hooks.beforeWrite?.(ctx, values, op, id);
    },
  };
}
