import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { access, customerIdOf } from '../../http/access.ts';
import { Envelope, okOnly, SuccessOnly } from '../../http/envelope.ts';
import { errorResponse } from '../../http/openapi.ts';
import { cachingHook, Id, itemSchema, requestContext, showEntity } from '../../resources/index.ts';
import { wishlistResource } from './customers.resources.ts';
import { addWishlistEntry, removeWishlistEntry } from './wishlist.service.ts';

const WishlistEntry = Envelope(itemSchema(wishlistResource, 'customer', 0));
const onSend = cachingHook('private');

/** Adds a product; the entry is answered as GET /rest/customer/wishlist/{id} answers it. */
function addRoute(app: FastifyInstance): void {
  app.post<{ Body: { productId: number } }>(
    '/rest/customer/wishlist',
    {
      schema: {
        tags: ['customer'],
        operationId: 'addWishlistEntry',
        summary: 'Add a product to the wishlist (201 when added, 200 when it was already there)',
        body: Type.Object({ productId: Id }, { additionalProperties: false }),
        response: { 200: WishlistEntry, 201: WishlistEntry, 422: errorResponse(422) },
      },
      config: { access: access.customer() },
      onSend,
    },
    async (request, reply) => {
      const { productId } = request.body;
      const entry = await addWishlistEntry(app.db, customerIdOf(request.caller), productId);
      const result = await showEntity(requestContext(request), wishlistResource, entry.id);
      return reply.code(entry.created ? 201 : 200).send(result);
    },
  );
}

function removeRoutes(app: FastifyInstance): void {
  // Removing is by product (the client knows the product, not the entry). Its own path keeps one
  // parameter name per path: /wishlist/{id} is the entry for GET. The first form, DELETE
  // /wishlist/{id} with the product id, still works for older clients (docs/api.md).
  const removeByProduct = async (customerId: number, productId: number) => {
    await removeWishlistEntry(app.db, customerId, productId);
    return okOnly();
  };
  app.delete<{ Params: { productId: number } }>(
    '/rest/customer/wishlist/product/:productId',
    {
      schema: {
        tags: ['customer'],
        operationId: 'removeWishlistProduct',
        summary: 'Remove a product from the wishlist',
        params: Type.Object({ productId: Id }),
        response: { 200: SuccessOnly, 404: errorResponse(404) },
      },
      config: { access: access.customer() },
      onSend,
    },
    async (request) => removeByProduct(customerIdOf(request.caller), request.params.productId),
  );
  app.delete<{ Params: { id: number } }>(
    '/rest/customer/wishlist/:id',
    {
      schema: {
        tags: ['customer'],
        operationId: 'removeWishlistProductById',
        summary: 'Remove a product from the wishlist (older form)',
        description:
          'The id is the product id, not the wishlist entry id. Kept for older clients; use DELETE /rest/customer/wishlist/product/{productId}.',
        deprecated: true,
        params: Type.Object({ id: { ...Id, description: 'The product id (not the entry id)' } }),
        response: { 200: SuccessOnly, 404: errorResponse(404) },
      },
      config: { access: access.customer() },
      onSend,
    },
    async (request) => removeByProduct(customerIdOf(request.caller), request.params.id),
  );
}

/** The wishlist's own writes, beside the generic wishlist resource. */
export function wishlistRoutes(app: FastifyInstance): void {
  addRoute(app);
  removeRoutes(app);
}
