import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { access } from '../../http/access.ts';
import { errorResponse } from '../../http/openapi.ts';
import { CartTokenHeader } from '../cart/cart.schemas.ts';
import { TotalsBody, TotalsResponse } from '../pricing/totals.schemas.ts';
import { assertPayWayEnabled } from '../payments/methods.ts';
import { assertOrderCaps } from './order-caps.ts';
import { quoteCart } from './quote.ts';
import { destinationJson } from './quote-destination.ts';
import { totalsJson } from '../pricing/totals-json.ts';
import { neverStored } from '../../http/no-store.ts';

export const checkoutRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const deps = { db: app.db, config: app.config };
  const tags = ['checkout'];
  app.addHook('onSend', neverStored);

  app.post(
    '/rest/v1/checkout/totals',
    {
      schema: {
        tags,
        operationId: 'getTotals',
        'x-body-name': 'Totals',
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
        { locale: request.locale },
      );
      assertOrderCaps(quote, request.body.payWay);
      assertPayWayEnabled(app.config, quote.settings, request.body.payWay);
      return { ...totalsJson(quote.totals, quote.unavailable), ...destinationJson(quote.destination) };
    },
  );
};
