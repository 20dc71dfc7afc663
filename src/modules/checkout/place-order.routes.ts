import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { access } from '../../http/access.ts';
import { Envelope } from '../../http/envelope.ts';
import { neverStored } from '../../http/no-store.ts';
import { errorResponse } from '../../http/openapi.ts';
import { assertEmailVerified } from '../customers/verification.ts';
import { placeOrderLimit } from './place-order-limits.ts';
import { OrderJson, PlaceOrderBody, PlaceOrderHeaders } from '../orders/order.schemas.ts';
import { idempotentReplayedHeader } from './checkout.api.ts';
import { placeOrder } from './place-order.service.ts';

/** POST /rest/checkout/place-order: the cart becomes an order (docs/checkout.md, docs/orders.md). */
export const placeOrderRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const deps = { db: app.db, config: app.config };
  const orderLimit = placeOrderLimit(app);
  const tags = ['checkout'];
  app.addHook('onSend', neverStored);

  app.post(
    '/rest/checkout/place-order',
    {
      schema: {
        tags,
        operationId: 'placeOrder',
        'x-response-headers': idempotentReplayedHeader,
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
      preHandler: [
        async (request) => {
          if (request.caller.kind === 'customer') {
            await assertEmailVerified(app.db, app.config, request.caller.customerId);
          }
        },
        orderLimit.take,
      ],
    },
    async (request, reply) => {
      const { caller, headers, body } = request;
      const answer = await placeOrder(deps, {
        caller,
        cartToken: headers['x-cart-token'],
        idempotencyKey: headers['idempotency-key'],
        body,
        now: new Date(),
        locale: request.locale,
      });
      if (answer.replayed) {
        reply.header('idempotent-replayed', 'true');
        await orderLimit.giveBack(request);
      }
      return reply.status(answer.status as 201).send(answer.body);
    },
  );
};
