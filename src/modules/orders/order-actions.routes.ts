import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { access } from '../../http/access.ts';
import { Envelope, ok } from '../../http/envelope.ts';
import { AppError } from '../../http/errors.ts';
import { limitCounter } from '../../http/limit-counter.ts';
import { neverStored } from '../../http/no-store.ts';
import { errorResponse } from '../../http/openapi.ts';
import { perIpLimit } from '../../http/rate-limit.ts';
import { Role } from '../../http/roles.ts';
import { lookupOrder } from './lookup.service.ts';
import { actorOf, adminActorOf } from './order-actor.ts';
import { CancelBody, LookupQuery, OrderIdParams, OrderJson, PaymentBody } from './order.schemas.ts';
import { cancelOrder, markPaid } from './order.service.ts';
import { captureOrderPayment } from './capture.service.ts';

type TypedApp = Parameters<FastifyPluginAsyncTypebox>[0];
const tags = ['order'];
const moved = {
  200: Envelope(OrderJson),
  404: errorResponse(404),
  409: errorResponse(409),
  422: errorResponse(422),
};

// After place-order (docs/orders.md): payment, cancellation, the guest lookup. Shipments and
// returns are ../fulfilment/.

function paymentAndCancelRoutes(app: TypedApp): void {
  const deps = { db: app.db, config: app.config };
  // Each write's service keeps an admin's change in the audit log (moveOrder, applyPayment).
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
      config: { access: access.admin(Role.Orders), audit: { entity: 'order' } },
    },
    async (request) =>
      ok(await markPaid(deps, request.params.id, adminActorOf(request.caller), request.body.reference)),
  );

  app.post(
    '/rest/order/order/:id/capture',
    {
      schema: {
        tags,
        operationId: 'captureOrderPayment',
        summary: "Take the money an order's card authorization holds (manual capture)",
        description:
          "The provider is asked to capture at once; the order's paymentStatus becomes paid when its event arrives.",
        params: OrderIdParams,
        response: moved,
      },
      config: { access: access.admin(Role.Orders), audit: { entity: 'order' } },
    },
    async (request) => ok(await captureOrderPayment(deps, request.params.id, adminActorOf(request.caller))),
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
}

/**
 * Guessing pairs is throttled like logins: every lookup per address, and failed ones per order
 * number and address and per order number from every address.
 */
function lookupRoute(app: TypedApp): void {
  const deps = { db: app.db, config: app.config };
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
}

export const orderActionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onSend', neverStored);
  paymentAndCancelRoutes(app);
  lookupRoute(app);
};
