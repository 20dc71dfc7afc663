import type { FastifyPluginAsync } from 'fastify';
import { registerResource } from '../../resources/index.ts';
import { categoryResource } from './category.resource.ts';
import { couponResource, giftResource, transportResource } from './checkout.resources.ts';
import { registerProductFacets } from './facets.routes.ts';
import { productResource } from './product.resource.ts';
import { variantResource } from './variant.resource.ts';

/** The catalog (products, categories) and the checkout's reference data (transports, coupons, gifts). */
export const catalogModule: FastifyPluginAsync = async (app) => {
  registerProductFacets(app);
  for (const resource of [
    productResource,
    variantResource,
    categoryResource,
    transportResource,
    couponResource,
    giftResource,
  ]) {
    registerResource(app, resource);
  }
};
