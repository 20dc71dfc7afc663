import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { access } from '../../http/access.ts';
import { Envelope, ListEnvelope, ok } from '../../http/envelope.ts';
import { AppError } from '../../http/errors.ts';
import { errorResponse } from '../../http/openapi.ts';
import { limitAsSent } from '../../resources/index.ts';
import { Role } from '../../http/roles.ts';
import { OrderIdParams, OrderJson, OrderListQuery, TransitionBody } from './order.schemas.ts';
import { listOrders, showOrder, transitionOrder } from './order.service.ts';
import { neverStored } from '../../http/no-store.ts';
import { actorOf } from './order-actor.ts';

type TypedApp = Parameters<FastifyPluginAsyncTypebox>[0];
const tags = ['order'];
const readAccess = { access: access.customerOrAdmin(Role.Admin, Role.Orders) };

/** The list and its first match. */
function listRoutes(app: TypedApp): void {
  const deps = { db: app.db, config: app.config };
  app.get(
    '/rest/order/order',
    {
      schema: {
        tags,
        operationId: 'listOrders',
        summary: "Orders, newest first (a customer's own; all for the back office)",
        querystring: OrderListQuery,
        response: { 200: ListEnvelope(OrderJson) },
      },
      config: readAccess,
      preValidation: limitAsSent,
    },
    async (request) => listOrders(deps, request.caller, request.query),
  );

  app.get(
    '/rest/order/order/item',
    {
      schema: {
        tags,
        operationId: 'findOrder',
        summary: 'The first order of the list that matches (newest first)',
        querystring: Type.Omit(OrderListQuery, ['page', 'limit']),
        response: { 200: Envelope(OrderJson), 404: errorResponse(404) },
      },
      config: readAccess,
    },
    async (request) => {
      // Only the list's filters: `page` and `limit` are not parameters of /item, whatever the URL carries.
      const first = (await listOrders(deps, request.caller, { ...request.query, page: 1, limit: 1 })).data[0];
      if (!first) throw new AppError('NOT_FOUND', 'no order matches');
      return ok(first);
    },
  );
}

/** One order, and its move to another status. */
function orderRoutesById(app: TypedApp): void {
  const deps = { db: app.db, config: app.config };
  app.get(
    '/rest/order/order/:id',
    {
      schema: {
        tags,
        operationId: 'getOrder',
        summary: 'One order',
        params: OrderIdParams,
        response: { 200: Envelope(OrderJson), 404: errorResponse(404) },
      },
      config: readAccess,
    },
    async (request) => ok(await showOrder(deps, request.caller, request.params.id)),
  );

  app.post(
    '/rest/order/order/:id/transition',
    {
      schema: {
        tags,
        operationId: 'transitionOrder',
        summary:
          'Move an order to another status, with an optional reason (cancel returns stock, coupon use and points)',
        params: OrderIdParams,
        body: TransitionBody,
        response: {
          200: Envelope(OrderJson),
          404: errorResponse(404),
          409: errorResponse(409),
          422: errorResponse(422),
        },
      },
      config: { access: access.admin(Role.Orders), audit: { entity: 'order' } },
    },
    async (request) =>
      ok(
        await transitionOrder(
          deps,
          request.params.id,
          request.body.to,
          actorOf(request.caller),
          request.body.reason,
        ),
      ),
  );
}

export const orderRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onSend', neverStored);
  listRoutes(app);
  orderRoutesById(app);
};
