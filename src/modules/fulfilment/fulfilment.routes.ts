import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { access } from '../../http/access.ts';
import { Envelope, ok } from '../../http/envelope.ts';
import { neverStored } from '../../http/no-store.ts';
import { errorResponse } from '../../http/openapi.ts';
import { Role } from '../../http/roles.ts';
import { adminActorOf } from '../orders/order-actor.ts';
import { OrderIdParams, OrderJson, ReturnBody, ShipmentBody } from '../orders/order.schemas.ts';
import { returnLines } from './returns.service.ts';
import { shipOrder } from './shipments.service.ts';

// Shipments and returns of an order (docs/orders.md); each service keeps the admin's change in
// the audit log (moveOrder, returnLines).

export const fulfilmentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const deps = { db: app.db, config: app.config };
  const tags = ['order'];
  const config = { access: access.admin(Role.Orders), audit: { entity: 'order' } };
  const refusals = { 404: errorResponse(404), 409: errorResponse(409), 422: errorResponse(422) };
  app.addHook('onSend', neverStored);

  app.post(
    '/rest/order/order/:id/shipment',
    {
      schema: {
        tags,
        operationId: 'shipOrder',
        summary: 'Ship a confirmed order with its carrier and tracking (e-mails the customer)',
        params: OrderIdParams,
        body: ShipmentBody,
        response: { 200: Envelope(OrderJson), ...refusals },
      },
      config,
    },
    async (request) =>
      ok(await shipOrder(deps, request.params.id, request.body, adminActorOf(request.caller))),
  );

  app.post(
    '/rest/order/order/:id/return',
    {
      schema: {
        tags,
        operationId: 'returnOrderLines',
        summary: 'Take back units of a shipped or delivered order and refund them',
        description:
          "Each line refunds its gross price less its share of the coupon and of the points' cash; points come back in proportion; stock when `restock` is true.",
        params: OrderIdParams,
        body: ReturnBody,
        response: { 201: Envelope(OrderJson), ...refusals },
      },
      config,
    },
    async (request, reply) => {
      const order = await returnLines(deps, request.params.id, request.body, adminActorOf(request.caller));
      return reply.status(201).send(ok(order));
    },
  );
};
