import type { FastifyPluginAsync } from 'fastify';
import { registerResource } from '../../resources/index.ts';
import { categoryResource } from './category.resource.ts';
import { registerProductFacets } from './facets.routes.ts';
import { productResource } from './product.resource.ts';
import { variantResource } from './variant.resource.ts';

/** The catalog: products, their variants, categories and facets. */
export const catalogModule: FastifyPluginAsync = async (app) => {
  registerProductFacets(app);
  for (const resource of [productResource, variantResource, categoryResource]) {
    registerResource(app, resource);
  }
};
