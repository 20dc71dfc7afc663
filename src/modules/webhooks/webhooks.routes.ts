import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { access, adminSubOf } from '../../http/access.ts';
import { Envelope, ListEnvelope, ok, SuccessOnly, okOnly } from '../../http/envelope.ts';
import { neverStored } from '../../http/no-store.ts';
import { errorResponse } from '../../http/openapi.ts';
import { limitAsSent } from '../../resources/index.ts';
import { Role } from '../../http/roles.ts';
import {
  DeliveryJson,
  DeliveryParams,
  ListQuery,
  WebhookCreateBody,
  WebhookJson,
  WebhookParams,
  WebhookUpdateBody,
  WebhookWithSecretJson,
} from './webhooks.schemas.ts';
import {
  changeWebhook,
  createWebhook,
  getWebhook,
  listDeliveries,
  listWebhooks,
  removeWebhook,
  retryDelivery,
  rotateWebhookSecret,
} from './webhooks.service.ts';

type TypedApp = Parameters<FastifyPluginAsyncTypebox>[0];

const tags = ['webhooks'];
const backend = { access: access.admin(Role.Developer, Role.Admin) };
// The service keeps each write in the audit log, in its transaction.
const write = (entity: string) => ({ ...backend, audit: { entity } });
const depsOf = (app: TypedApp) => ({ db: app.db, config: app.config });

export const webhookRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Secrets and delivery history are nobody's cache's business.
  app.addHook('onSend', neverStored);
  webhookReadRoutes(app);
  webhookWriteRoutes(app);
  secretAndDeliveryRoutes(app);
};

/** The webhooks, and one of them. */
function webhookReadRoutes(app: TypedApp): void {
  const deps = depsOf(app);
  const notFound = errorResponse(404);
  app.get(
    '/rest/system/webhook',
    {
      schema: {
        tags,
        operationId: 'listWebhooks',
        summary: 'Webhooks',
        querystring: ListQuery,
        response: { 200: ListEnvelope(WebhookJson) },
      },
      config: backend,
      preValidation: limitAsSent,
    },
    async (request) => listWebhooks(deps, request.query),
  );

  app.get(
    '/rest/system/webhook/:id',
    {
      schema: {
        tags,
        operationId: 'getWebhook',
        summary: 'One webhook (without its secret)',
        params: WebhookParams,
        response: { 200: Envelope(WebhookJson), 404: notFound },
      },
      config: backend,
    },
    async (request) => ok(await getWebhook(deps, request.params.id)),
  );
}

/** Subscribing a URL, changing and removing it. */
function webhookWriteRoutes(app: TypedApp): void {
  const deps = depsOf(app);
  const notFound = errorResponse(404);
  app.post(
    '/rest/system/webhook',
    {
      schema: {
        tags,
        operationId: 'createWebhook',
        summary: 'Subscribe a URL to events; the answer is the only one but rotation to show the secret',
        body: WebhookCreateBody,
        response: { 201: Envelope(WebhookWithSecretJson), 422: errorResponse(422) },
      },
      config: write('webhook'),
    },
    async (request, reply) =>
      reply.code(201).send(ok(await createWebhook(deps, adminSubOf(request.caller), request.body))),
  );

  app.patch(
    '/rest/system/webhook/:id',
    {
      schema: {
        tags,
        operationId: 'updateWebhook',
        summary: 'Change url, events, active or description',
        params: WebhookParams,
        body: WebhookUpdateBody,
        response: { 200: Envelope(WebhookJson), 404: notFound, 422: errorResponse(422) },
      },
      config: write('webhook'),
    },
    async (request) =>
      ok(await changeWebhook(deps, adminSubOf(request.caller), request.params.id, request.body)),
  );

  app.delete(
    '/rest/system/webhook/:id',
    {
      schema: {
        tags,
        operationId: 'deleteWebhook',
        summary: 'Remove a webhook and its delivery history',
        params: WebhookParams,
        response: { 200: SuccessOnly, 404: notFound },
      },
      config: write('webhook'),
    },
    async (request) => {
      await removeWebhook(deps, adminSubOf(request.caller), request.params.id);
      return okOnly();
    },
  );
}

/** A new signing secret, the delivery history and a delivery sent again. */
function secretAndDeliveryRoutes(app: TypedApp): void {
  const deps = depsOf(app);
  const notFound = errorResponse(404);
  app.post(
    '/rest/system/webhook/:id/rotate-secret',
    {
      schema: {
        tags,
        operationId: 'rotateWebhookSecret',
        summary: 'A new signing secret, answered once',
        params: WebhookParams,
        response: { 200: Envelope(WebhookWithSecretJson), 404: notFound },
      },
      config: write('webhook'),
    },
    async (request) => ok(await rotateWebhookSecret(deps, adminSubOf(request.caller), request.params.id)),
  );

  app.get(
    '/rest/system/webhook/:id/deliveries',
    {
      schema: {
        tags,
        operationId: 'listWebhookDeliveries',
        summary: 'Deliveries, newest first: status, latest response code and duration, next attempt',
        params: WebhookParams,
        querystring: ListQuery,
        response: { 200: ListEnvelope(DeliveryJson), 404: notFound },
      },
      config: backend,
      preValidation: limitAsSent,
    },
    async (request) => listDeliveries(deps, request.params.id, request.query),
  );

  app.post(
    '/rest/system/webhook/:id/deliveries/:deliveryId/retry',
    {
      schema: {
        tags,
        operationId: 'retryWebhookDelivery',
        summary: 'Send a delivery once more, now',
        params: DeliveryParams,
        response: { 202: Envelope(DeliveryJson), 404: notFound, 409: errorResponse(409) },
      },
      config: write('webhook_delivery'),
    },
    async (request, reply) => {
      const { id, deliveryId } = request.params;
      const delivery = await retryDelivery(deps, adminSubOf(request.caller), id, deliveryId);
      return reply.code(202).send(ok(delivery));
    },
  );
}
