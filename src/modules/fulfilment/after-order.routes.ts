import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { access } from '../../http/access.ts';
import { Envelope, ok } from '../../http/envelope.ts';
import { AppError } from '../../http/errors.ts';
import { limitCounter } from '../../http/limit-counter.ts';
import { neverStored } from '../../http/no-store.ts';
import { errorResponse } from '../../http/openapi.ts';
import { perIpLimit } from '../../http/rate-limit.ts';
import { Role } from '../../http/roles.ts';
import { markPaid, shipOrder } from './shipments.service.ts';
import { lookupOrder } from '../orders/lookup.service.ts';
import { actorOf } from '../orders/order-actor.ts';
import { cancelOrder } from '../orders/order.service.ts';
import {
  CancelBody,
  LookupQuery,
  OrderIdParams,
  OrderJson,
  PaymentBody,
  ReturnBody,
  ShipmentBody,
} from '../orders/order.schemas.ts';
import { returnLines } from './returns.service.ts';

// After place-order (docs/orders.md): shipments, payments, cancellation, returns, the guest lookup.

export const afterOrderRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const deps = { db: app.db, config: app.config };
  const tags = ['order'];
  // Each write's service keeps an admin's change in the audit log (moveOrder, applyPayment, returnLines).
  const orders = { access: access.admin(Role.Orders), audit: { entity: 'order' } };
  const refusals = { 404: errorResponse(404), 409: errorResponse(409), 422: errorResponse(422) };
  const moved = { 200: Envelope(OrderJson), ...refusals };
  app.addHook('onSend', neverStored);
  const admin = (request: FastifyRequest) => {
    const actor = actorOf(request.caller);
    if (actor.kind !== 'admin') throw new AppError('FORBIDDEN', 'this operation needs an admin token');
    return actor;
  };

  app.post(
    '/rest/order/order/:id/shipment',
    {
      schema: {
        tags,
        operationId: 'shipOrder',
        summary: 'Ship a confirmed order with its carrier and tracking (e-mails the customer)',
        params: OrderIdParams,
        body: ShipmentBody,
        response: moved,
      },
      config: orders,
    },
    async (request) => ok(await shipOrder(deps, request.params.id, request.body, admin(request))),
  );

  app.post(
    '/rest/order/order/:id/payment',
    {
      schema: {
        tags,
        operationId: 'markOrderPaid',
        summary: 'Record that an order was paid (bank transfer or card confirmed)',
        params: OrderIdParams,
        body: PaymentBody,
        response: moved,
      },
      config: orders,
    },
    async (request) => ok(await markPaid(deps, request.params.id, admin(request), request.body.reference)),
  );

  app.post(
    '/rest/order/order/:id/cancel',
    {
      schema: {
        tags,
        operationId: 'cancelOrder',
        summary: 'Cancel an order (a customer: their own pending order), with a reason',
        description: 'Gives back stock, the coupon use and the points, and refunds what was paid.',
        params: OrderIdParams,
        body: CancelBody,
        response: moved,
      },
      config: { access: access.customerOrAdmin(Role.Orders), audit: { entity: 'order' } },
    },
    async (request) =>
      ok(await cancelOrder(deps, request.params.id, actorOf(request.caller), request.body.reason)),
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
      config: orders,
    },
    async (request, reply) => {
      const order = await returnLines(deps, request.params.id, request.body, admin(request));
      return reply.status(201).send(ok(order));
    },
  );

  // Guessing pairs is throttled like logins: every lookup per address, and failed ones per order
  // number and address and per order number from every address.
  const perPair = limitCounter(app, 'loginPerAccount', 'order-lookup-failures');
  const perNumber = limitCounter(app, 'loginPerAccountAllIps', 'order-lookup-failures-all');
  app.get(
    '/rest/order/lookup',
    {
      schema: {
        tags,
        operationId: 'lookupOrder',
        summary: 'Find an order by its number and e-mail address (guests)',
        querystring: LookupQuery,
        response: { 200: Envelope(OrderJson), 404: errorResponse(404) },
      },
      config: { access: access.public(), rateLimit: perIpLimit(app.config, 'loginPerIp') },
      preHandler: async (request, reply) => {
        const number = request.query.number.trim().toUpperCase();
        await perPair.refuseIfSpent(`${number}|${request.ip}`, reply);
        await perNumber.refuseIfSpent(number, reply);
      },
    },
    async (request) => {
      const { number, email } = request.query;
      try {
        return ok(await lookupOrder(deps, number, email));
      } catch (err) {
        if (err instanceof AppError && err.code === 'NOT_FOUND') {
          const key = number.trim().toUpperCase();
          await Promise.all([perPair.count(`${key}|${request.ip}`), perNumber.count(key)]);
        }
        throw err;
      }
    },
  );
};
