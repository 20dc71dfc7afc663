import type { ErrorCatalog } from '../../http/errors.ts';
import type { ApiTag } from '../../http/openapi.ts';

export const mediaTag: ApiTag = {
  name: 'media',
  group: 'Back office',
  description: 'Uploaded images: the library, and the files with their resized copies (docs/media.md).',
};

export const mediaErrors = {
  ASSET_IN_USE: {
    status: 409,
    meaning: 'The image is shown by a product, variant, slide or reel (details name them).',
  },
  IMAGE_TOO_LARGE: { status: 422, meaning: 'The image has more pixels than the shop accepts.' },
  IMAGE_UNREADABLE: { status: 422, meaning: 'The image is truncated or corrupt.' },
  UNKNOWN_ASSET: { status: 422, meaning: 'A media entry names an image that does not exist.' },
} as const satisfies ErrorCatalog;

type MediaErrors = typeof mediaErrors;
declare module '../../http/errors.ts' {
  interface FeatureErrorCodes extends MediaErrors {}
}
