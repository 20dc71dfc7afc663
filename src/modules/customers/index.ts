import type { FastifyPluginAsync } from 'fastify';
import { registerResource } from '../../resources/index.ts';
import { addressResource, customerResource, wishlistResource } from './customers.resources.ts';
import { wishlistRoutes } from './wishlist.routes.ts';

/** Customers (self), their addresses and wishlists. */
export const customersModule: FastifyPluginAsync = async (app) => {
  registerResource(app, customerResource);
  registerResource(app, addressResource);
  registerResource(app, wishlistResource);

  wishlistRoutes(app);
};
