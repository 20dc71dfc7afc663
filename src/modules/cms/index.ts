import type { FastifyPluginAsync } from 'fastify';
import { registerResource } from '../../resources/index.ts';
import { reelResource, sliderGroupResource, sliderResource } from './cms.resources.ts';

/** CMS content: video reels (GET /rest/cms/reel) and hero sliders in groups. */
export const cmsModule: FastifyPluginAsync = async (app) => {
  for (const resource of [reelResource, sliderGroupResource, sliderResource]) registerResource(app, resource);
};
