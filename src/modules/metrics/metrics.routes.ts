import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../../http/errors.ts';
import { Metrics } from './metrics.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The `metrics.port` listener, when one is configured. */
    metricsServer: Server | undefined;
    /** Records an answer in the request histogram (for answers sent without Fastify's hooks). */
    observeRequest: ((method: string, route: string, status: number, seconds: number) => void) | undefined;
  }
}

/** Compared as digests: equal lengths for timingSafeEqual, whatever the caller sent. */
const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * GET /metrics (docs/operations.md): with `metrics.token` on the API's port behind that bearer
 * token, with `metrics.port` on a listener of its own that serves nothing else; with neither, no
 * route and no collector at all. Not part of the API document.
 */
const metricsPlugin: FastifyPluginAsync = async (app) => {
  const { token, port } = app.config.metrics;
  app.decorate('metricsServer', undefined);
  app.decorate('observeRequest', undefined);
  if (token === undefined && port === undefined) return;
  const metrics = new Metrics({
    database: app.database,
    // Read at each scrape: the store's connection is opened after this plugin.
    rateLimitStoreReachable: () => app.rateLimitRedis === undefined || app.rateLimitRedis.status === 'ready',
    // Read at each scrape: the cache is installed after this plugin.
    answerCache: () => {
      const answers = app.responseCache?.answers;
      return (
        answers && {
          hits: answers.hits,
          misses: answers.misses,
          entries: answers.size,
          bytes: answers.heldBytes,
        }
      );
    },
  });
  app.observeRequest = (method, route, status, seconds) => metrics.observe(method, route, status, seconds);
  // Root level (fastify-plugin): every route's answers are observed, by route template.
  app.addHook('onResponse', (request, reply, done) => {
    metrics.observe(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  if (token !== undefined) {
    const expected = digest(token);
    app.get(
      '/metrics',
      { schema: { hide: true }, config: { ownAuthorization: true } },
      async (request, reply) => {
        const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
        if (given === undefined || !timingSafeEqual(digest(given), expected)) {
          throw new AppError('UNAUTHENTICATED', 'GET /metrics needs the metrics token');
        }
        return reply
          .header('cache-control', 'no-store')
          .type(metrics.contentType)
          .send(await metrics.text());
      },
    );
  }
  if (port !== undefined) listenForMetrics(app, metrics, port);
};

function listenForMetrics(app: FastifyInstance, metrics: Metrics, port: number): void {
  const server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (request.method !== 'GET' || path !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('only GET /metrics here\n');
      return;
    }
    metrics.text().then(
      (text) => response.writeHead(200, { 'content-type': metrics.contentType }).end(text),
      (err: unknown) => {
        app.log.error({ err }, 'metrics could not be collected');
        response.writeHead(500, { 'content-type': 'text/plain' }).end('metrics could not be collected\n');
      },
    );
  });
  app.metricsServer = server;
  app.addHook('onReady', async () => {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, app.config.host, () => resolve());
    });
  });
  app.addHook('onClose', async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
}

export const metricsModule = fp(metricsPlugin, { name: 'metrics' });
