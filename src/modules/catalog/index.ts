import type { FastifyPluginAsync } from 'fastify';
import { registerResource } from '../../resources/index.ts';
import { categoryResource } from './category.resource.ts';
import { registerProductFacets } from './facets.routes.ts';
import { productResource } from './product.resource.ts';
import { variantResource } from './variant.resource.ts';
import { products, productVariants } from './catalog.tables.ts';
import type { MediaUse } from '../media/media-uses.ts';

/** The catalog's rows that show uploaded images (an image they show cannot be deleted). */
export const catalogMediaUses: MediaUse[] = [
  { owner: 'product', table: products, column: products.media },
  { owner: 'variant', table: productVariants, column: productVariants.media },
];

/** The catalog: products, their variants, categories and facets. */
export const catalogModule: FastifyPluginAsync = async (app) => {
  registerProductFacets(app);
  for (const resource of [productResource, variantResource, categoryResource]) {
    registerResource(app, resource);
  }
};
