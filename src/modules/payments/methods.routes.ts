import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { access } from '../../http/access.ts';
import { Envelope, ok } from '../../http/envelope.ts';
import { readSettings } from '../settings/settings.service.ts';
import { enabledPaymentMethods } from './methods.ts';
import { PaymentMethodJson } from './payments.schemas.ts';

/** GET /rest/checkout/payment-methods: what a customer may choose as payWay now. */
export const paymentMethodRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/rest/checkout/payment-methods',
    {
      schema: {
        tags: ['checkout'],
        operationId: 'listPaymentMethods',
        summary: 'List the payment methods offered now',
        response: { 200: Envelope(Type.Array(PaymentMethodJson)) },
      },
      config: { access: access.public() },
    },
    async () => ok(enabledPaymentMethods(app.config, await readSettings(app.db, app.config))),
  );
};
