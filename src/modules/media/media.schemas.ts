import { type Static, Type } from '@sinclair/typebox';
import { INT32_MAX, PageQuery } from '../../resources/index.ts';
import { COPY_WIDTHS, IMAGE_FORMATS, OUTPUT_FORMATS, type OutputFormat } from './image-formats.ts';

const ALT_MAX = 500;

export const AssetJson = Type.Object(
  {
    id: Type.Integer(),
    url: Type.String({ description: '/media/{id}/{file name}; add ?w= and ?format= for a resized copy' }),
    mimeType: Type.String(),
    width: Type.Integer(),
    height: Type.Integer(),
    bytes: Type.Integer({ description: 'Size of the stored original (metadata stripped)' }),
    alt: Type.String(),
    srcset: Type.String({ description: 'The resized copies for an <img srcset>' }),
    usedBy: Type.Array(Type.Object({ owner: Type.String(), id: Type.Integer() }), {
      description: 'The products, variants, slides and reels that show it',
    }),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'MediaAsset' },
);
export type AssetJsonType = Static<typeof AssetJson>;

export const UploadBody = Type.Object(
  {
    file: Type.String({
      contentMediaType: 'application/octet-stream',
      description: 'The image: JPEG, PNG, WebP, AVIF or GIF, recognised from its bytes',
    }),
    alt: Type.Optional(Type.String({ maxLength: ALT_MAX, description: 'Text shown when the image is not' })),
  },
  { additionalProperties: false },
);

export const AltBody = Type.Object(
  { alt: Type.String({ maxLength: ALT_MAX }) },
  { additionalProperties: false },
);

export const AssetParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: INT32_MAX }) });

export const AssetQuery = Type.Object(
  {
    ...PageQuery,
    q: Type.Optional(Type.String({ maxLength: 200, description: 'Part of the file name or the alt text' })),
    format: Type.Optional(Type.Unsafe<string>({ type: 'string', enum: [...IMAGE_FORMATS] })),
  },
  { additionalProperties: false },
);
export type AssetQueryType = Static<typeof AssetQuery>;

export const FileParams = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: INT32_MAX }),
  name: Type.String({ minLength: 1, maxLength: 100 }),
});

export const FileQuery = Type.Object(
  {
    w: Type.Optional(
      Type.Unsafe<number>({
        type: 'integer',
        enum: [...COPY_WIDTHS],
        minimum: COPY_WIDTHS[0],
        maximum: COPY_WIDTHS[COPY_WIDTHS.length - 1],
        description: `Width of the copy: one of ${COPY_WIDTHS.join(', ')}`,
      }),
    ),
    format: Type.Optional(
      Type.Unsafe<OutputFormat>({
        type: 'string',
        enum: [...OUTPUT_FORMATS],
        description: 'auto: AVIF or WebP when Accept names it, else the original format',
      }),
    ),
  },
  { additionalProperties: false },
);
export type FileQueryType = Static<typeof FileQuery>;
