import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { access } from '../../http/access.ts';
import { Envelope, ok } from '../../http/envelope.ts';
import { errorResponse } from '../../http/openapi.ts';
import { limitCounter } from '../../http/limit-counter.ts';
import { perIpLimit } from '../../http/rate-limit.ts';
import {
  AddItemBody,
  CartJson,
  CartTokenHeader,
  CouponBody,
  LineIdParams,
  SetQtyBody,
} from './cart.schemas.ts';
import { addItem, removeItem, setItemQty } from './cart-lines.service.ts';
import { applyCoupon, type CartAnswer, type CartDeps, readCart, removeCoupon } from './cart.service.ts';
import { cartTokenHeader } from './cart.api.ts';
import { neverStored } from '../../http/no-store.ts';

/** Sends a guest's token back in X-Cart-Token (and data.token), so the client keeps using it. */
function answer(reply: FastifyReply, result: CartAnswer) {
  if (result.token) reply.header('x-cart-token', result.token);
  return ok(result.cart);
}

type TypedApp = Parameters<FastifyPluginAsyncTypebox>[0];

const tags = ['cart'];
const cartAccess = { access: access.public() };
// 403: an admin token (admins have no cart).
const cartResponses = () => ({ 200: Envelope(CartJson), 403: errorResponse(403) });

/** What the cart's routes share. */
interface CartRouteContext {
  deps: CartDeps;
  /** The dependencies of a request that may create a guest cart (counted per address). */
  creating: (request: FastifyRequest, reply: FastifyReply) => CartDeps;
  response: ReturnType<typeof cartResponses>;
}

export const cartRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const deps: CartDeps = { db: app.db, config: app.config };
  // Only a request that creates a guest cart counts, so writes to existing carts go on.
  const newCarts = limitCounter(app, 'cartsPerIp');
  const creating = (request: FastifyRequest, reply: FastifyReply): CartDeps => ({
    ...deps,
    beforeNewGuestCart: () => newCarts.take(request.ip, reply),
  });
  const context: CartRouteContext = { deps, creating, response: cartResponses() };
  // A cart is personal: never stored by a cache, whoever asks.
  app.addHook('onSend', neverStored);
  readCartRoute(app, context);
  addItemRoute(app, context);
  lineRoutes(app, context);
  couponRoutes(app, context);
};

function readCartRoute(app: TypedApp, context: CartRouteContext): void {
  app.get(
    '/rest/cart',
    {
      schema: {
        tags,
        operationId: 'getCart',
        summary: 'The current cart',
        headers: CartTokenHeader,
        'x-response-headers': cartTokenHeader,
        response: context.response,
      },
      config: cartAccess,
    },
    async (request, reply) =>
      answer(reply, await readCart(context.deps, request.caller, request.headers['x-cart-token'])),
  );
}

function addItemRoute(app: TypedApp, context: CartRouteContext): void {
  app.post(
    '/rest/cart/items',
    {
      schema: {
        tags,
        operationId: 'addCartItem',
        summary: 'Add units of a variant (to its line)',
        description:
          'Takes variantId, or productId for a product with one variant (422 VARIANT_REQUIRED for one with ' +
          'several). A line beyond the stock on hand is 409 OUT_OF_STOCK with details naming the variant ' +
          'and availableQty.',
        headers: CartTokenHeader,
        'x-response-headers': cartTokenHeader,
        body: AddItemBody,
        response: { ...context.response, 409: errorResponse(409), 422: errorResponse(422) },
      },
      config: cartAccess,
    },
    async (request, reply) => {
      const { productId, variantId, qty } = request.body;
      const token = request.headers['x-cart-token'];
      const ref = { productId, variantId };
      return answer(reply, await addItem(context.creating(request, reply), request.caller, token, ref, qty));
    },
  );
}

/** A line's quantity set, or the line removed. */
function lineRoutes(app: TypedApp, context: CartRouteContext): void {
  app.patch(
    '/rest/cart/items/:id',
    {
      schema: {
        tags,
        operationId: 'setCartItemQuantity',
        summary: "Set a line's quantity (0 removes it)",
        description:
          'The line is named by its variant id (for a product with one variant, the product id is the ' +
          'same). Raising it beyond the stock on hand is 409 OUT_OF_STOCK.',
        headers: CartTokenHeader,
        'x-response-headers': cartTokenHeader,
        params: LineIdParams,
        body: SetQtyBody,
        response: {
          ...context.response,
          404: errorResponse(404),
          409: errorResponse(409),
          422: errorResponse(422),
        },
      },
      config: cartAccess,
    },
    async (request, reply) => {
      const token = request.headers['x-cart-token'];
      return answer(
        reply,
        await setItemQty(context.deps, request.caller, token, request.params.id, request.body.qty),
      );
    },
  );

  app.delete(
    '/rest/cart/items/:id',
    {
      schema: {
        tags,
        operationId: 'removeCartItem',
        summary: 'Remove a line',
        headers: CartTokenHeader,
        'x-response-headers': cartTokenHeader,
        params: LineIdParams,
        response: context.response,
      },
      config: cartAccess,
    },
    async (request, reply) => {
      const token = request.headers['x-cart-token'];
      return answer(reply, await removeItem(context.deps, request.caller, token, request.params.id));
    },
  );
}

function couponRoutes(app: TypedApp, context: CartRouteContext): void {
  app.post(
    '/rest/cart/coupon',
    {
      schema: {
        tags,
        operationId: 'applyCartCoupon',
        summary: 'Apply a coupon code (rate limited per IP)',
        headers: CartTokenHeader,
        'x-response-headers': cartTokenHeader,
        body: CouponBody,
        response: { ...context.response, 422: errorResponse(422) },
      },
      config: { ...cartAccess, rateLimit: perIpLimit(app.config, 'couponPerIp') },
    },
    async (request, reply) => {
      const token = request.headers['x-cart-token'];
      const code = request.body.code;
      return answer(
        reply,
        await applyCoupon(context.creating(request, reply), request.caller, token, code, new Date()),
      );
    },
  );

  app.delete(
    '/rest/cart/coupon',
    {
      schema: {
        tags,
        operationId: 'removeCartCoupon',
        summary: 'Remove the coupon',
        headers: CartTokenHeader,
        'x-response-headers': cartTokenHeader,
        response: context.response,
      },
      config: cartAccess,
    },
    async (request, reply) =>
      answer(reply, await removeCoupon(context.deps, request.caller, request.headers['x-cart-token'])),
  );
}
