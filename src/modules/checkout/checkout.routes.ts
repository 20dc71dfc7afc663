import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { access } from '../../http/access.ts';
import { Envelope } from '../../http/envelope.ts';
import { errorResponse } from '../../http/openapi.ts';
import { OrderJson, PlaceOrderBody, PlaceOrderHeaders } from '../orders/order.schemas.ts';
import { CartTokenHeader, TotalsBody, TotalsResponse } from './checkout.schemas.ts';
import { placeOrder } from './place-order.service.ts';
import { quoteCart } from './quote.ts';
import { totalsJson } from './totals-json.ts';

export const checkoutRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const deps = { db: app.db, config: app.config };
  const tags = ['checkout'];
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('cache-control', 'private, no-store');
    return payload;
  });

  app.post(
    '/rest/v1/checkout/totals',
    {
      schema: {
        tags,
        summary: 'The checkout quote of the cart (bare object, no envelope)',
        headers: CartTokenHeader,
        body: TotalsBody,
        response: { 200: TotalsResponse, 403: errorResponse(403), 422: errorResponse(422) },
      },
      config: { access: access.public() },
    },
    async (request) => {
      const quote = await quoteCart(
        deps,
        request.caller,
        request.headers['x-cart-token'],
        request.body,
        new Date(),
      );
      return totalsJson(quote.totals, quote.unavailable);
    },
  );

  app.post(
    '/rest/checkout/place-order',
    {
      schema: {
        tags,
        summary: 'Place the cart as an order, in one transaction (Idempotency-Key supported)',
        headers: PlaceOrderHeaders,
        body: PlaceOrderBody,
        response: {
          201: Envelope(OrderJson),
          403: errorResponse(403),
          409: errorResponse(409),
          422: errorResponse(422),
        },
      },
      config: { access: access.public() },
    },
    async (request, reply) => {
      const { caller, headers, body } = request;
      const answer = await placeOrder(deps, {
        caller,
        cartToken: headers['x-cart-token'],
        idempotencyKey: headers['idempotency-key'],
        body,
        now: new Date(),
      });
      if (answer.replayed) reply.header('idempotent-replayed', 'true');
      return reply.status(answer.status as 201).send(answer.body);
    },
  );
};
