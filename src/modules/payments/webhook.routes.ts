import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { access } from '../../http/access.ts';
import { Envelope, ok } from '../../http/envelope.ts';
import { errorResponse } from '../../http/openapi.ts';
import { WebhookAnswer } from './payments.schemas.ts';
import { providerNamed } from './providers/index.ts';
import { testProviderSecret } from './providers/test.ts';
import { type OrderPaymentPort, receivePaymentEvent } from './webhook.service.ts';

/** A provider's event body may be this large; larger is 413 before it is read. */
const EVENT_BODY_LIMIT = 1024 * 1024;

/** POST /rest/payments/{provider}/webhook, with the orders' side passed in (src/modules/index.ts). */
export function paymentWebhookRoutes(orders: OrderPaymentPort): FastifyPluginAsyncTypebox {
  return async (app) => {
    const keys = { testEventSecret: testProviderSecret(app.tokens) };
    // The signature covers the bytes as sent: this route reads its body as text, not parsed.
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) =>
      done(null, body),
    );
    app.post(
      '/rest/payments/:provider/webhook',
      {
        bodyLimit: EVENT_BODY_LIMIT,
        schema: {
          tags: ['payments'],
          operationId: 'receivePaymentEvent',
          summary: "Receive a payment provider's signed event",
          description:
            'A bad or missing signature, or an event older than 5 minutes, is 400 and changes nothing; an event id seen before answers 200 and changes nothing.',
          params: Type.Object({ provider: Type.String({ pattern: '^[a-z]{1,20}$' }) }),
          body: Type.String({ maxLength: EVENT_BODY_LIMIT }),
          response: { 200: Envelope(WebhookAnswer), 404: errorResponse(404) },
        },
        // The order's payment, the card payment, the event: no table a cached answer reads.
        config: { access: access.public(), movesNoVersion: true },
      },
      async (request) => {
        const provider = providerNamed(request.params.provider, app.config, app.db, keys);
        const header = provider ? request.headers[provider.signatureHeader] : undefined;
        return ok(
          await receivePaymentEvent(
            { db: app.db, config: app.config, orders, keys },
            {
              provider: request.params.provider,
              rawBody: request.body,
              signature: typeof header === 'string' ? header : undefined,
              now: new Date(),
            },
          ),
        );
      },
    );
  };
}
