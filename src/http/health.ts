import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError } from './errors.ts';
import { Envelope, ok } from './envelope.ts';
import { type ApiTag, errorResponse } from './openapi.ts';

export const operationsTag: ApiTag = {
  name: 'operations',
  group: 'Operations',
  description: 'Liveness and readiness probes for the platform.',
};
const tags = [operationsTag.name];

const Live = Envelope(Type.Object({ status: Type.Literal('live') }));
const Ready = Envelope(
  Type.Object({
    status: Type.Literal('ready'),
    database: Type.Union([Type.Literal('pglite'), Type.Literal('postgres')]),
  }),
);

export const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/health/live',
    {
      schema: { tags, operationId: 'checkLiveness', summary: 'The process is up', response: { 200: Live } },
    },
    async () => ok({ status: 'live' as const }),
  );

  app.get(
    '/health/ready',
    {
      schema: {
        tags,
        operationId: 'checkReadiness',
        summary: 'The database answers and the service is not shutting down',
        response: { 200: Ready, 503: errorResponse(503) },
      },
    },
    async () => {
      if (app.lifecycle.shuttingDown)
        throw new AppError('SERVICE_UNAVAILABLE', 'the service is shutting down');
      try {
        await app.database.ping();
      } catch (err) {
        // The cause decides how the failure is logged: an outage is counted, not logged per probe.
        const unreachable = new AppError('SERVICE_UNAVAILABLE', 'the database is not reachable');
        unreachable.cause = err;
        throw unreachable;
      }
      return ok({ status: 'ready' as const, database: app.database.engine });
    },
  );
};
