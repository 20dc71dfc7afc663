import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import { access, customerIdOf } from '../../http/access.ts';
import { SuccessOnly } from '../../http/envelope.ts';
import { errorResponse } from '../../http/openapi.ts';
import {
  cachingHook,
  INT32_MAX,
  itemSchema,
  oneResponse,
  registerResource,
  requestContext,
  showEntity,
} from '../../resources/index.ts';
import { addressResource, customerResource, wishlistResource } from './customers.resources.ts';
import { addWishlistEntry, removeWishlistEntry } from './wishlist.service.ts';

const ProductId = Type.Integer({ minimum: 1, maximum: INT32_MAX });
const WishlistEntry = oneResponse(itemSchema(wishlistResource, 'customer', 0));

/** Customers (self), their addresses and wishlists. */
export const customersModule: FastifyPluginAsync = async (app) => {
  registerResource(app, customerResource);
  registerResource(app, addressResource);
  registerResource(app, wishlistResource);

  const onSend = cachingHook('private');
  app.post(
    '/rest/customer/wishlist',
    {
      schema: {
        tags: ['customer'],
        summary: 'Add a product to the wishlist (201 when added, 200 when it was already there)',
        body: Type.Object({ productId: ProductId }, { additionalProperties: false }),
        response: { 200: WishlistEntry, 201: WishlistEntry, 422: errorResponse(422) },
      },
      config: { access: access.customer() },
      onSend,
    },
    async (request, reply) => {
      const { productId } = request.body as { productId: number };
      const entry = await addWishlistEntry(app.db, customerIdOf(request.caller), productId);
      const result = await showEntity(requestContext(request), wishlistResource, entry.id);
      return reply.code(entry.created ? 201 : 200).send(result);
    },
  );

  app.delete(
    '/rest/customer/wishlist/:productId',
    {
      schema: {
        tags: ['customer'],
        summary: 'Remove a product from the wishlist',
        params: Type.Object({ productId: ProductId }),
        response: { 200: SuccessOnly, 404: errorResponse(404) },
      },
      config: { access: access.customer() },
      onSend,
    },
    async (request) => {
      const { productId } = request.params as { productId: number };
      await removeWishlistEntry(app.db, customerIdOf(request.caller), productId);
      return { success: true as const };
    },
  );
};
