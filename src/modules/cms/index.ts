import type { FastifyPluginAsync } from 'fastify';
import { registerResource } from '../../resources/index.ts';
import { reelResource, sliderGroupResource, sliderResource } from './cms.resources.ts';
import { reels, sliders } from './cms.tables.ts';
import type { MediaUse } from '../media/media-uses.ts';

/** The CMS rows that show uploaded images (an image they show cannot be deleted). */
export const cmsMediaUses: MediaUse[] = [
  { owner: 'slide', table: sliders, column: sliders.media },
  { owner: 'reel', table: reels, column: reels.media },
];

/** CMS content: video reels (GET /rest/cms/reel) and hero sliders in groups. */
export const cmsModule: FastifyPluginAsync = async (app) => {
  for (const resource of [reelResource, sliderGroupResource, sliderResource]) registerResource(app, resource);
};
