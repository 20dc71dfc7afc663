import type { ApiTag } from '../../http/openapi.ts';

export const cmsTag: ApiTag = {
  name: 'cms',
  group: 'Storefront',
  description: 'Content: video reels, slider groups and sliders.',
};
