import cors from '@fastify/cors';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, type FastifyServerOptions, type RouteOptions } from 'fastify';
import { type Config, jwtSecret } from './config.ts';
import type { Database, Db } from './db/client.ts';
import { type Caller, GUEST, installAccessGuard, resolveCaller } from './http/access.ts';
import { AppError, clientErrorHandler, ErrorBody, handleError, notFoundHandler } from './http/errors.ts';
import { Pagination } from './http/envelope.ts';
import { OneLinePerRequest, redactSecrets } from './http/logging.ts';
import { documentErrorResponses } from './http/openapi.ts';
import { securityHeaders } from './http/security-headers.ts';
import { sharedSerializers } from './http/serializers.ts';
import { requestIdFor } from './http/request-id.ts';
import { registerRateLimit } from './modules/auth/rate-limit.ts';
import { AccessTokens } from './modules/auth/tokens.ts';
import { modules } from './modules/index.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: Database;
    db: Db;
    lifecycle: { shuttingDown: boolean };
    tokens: AccessTokens;
    /** Every route as registered, for the documentation and access-control tests. */
    routeList: RouteOptions[];
  }
}

const API_CSP = "default-src 'none'; frame-ancestors 'none'";

export interface BuildAppOptions {
  config: Config;
  database: Database;
  /** A pino destination or `false`; defaults to stdout at the configured level. */
  logger?: FastifyServerOptions['logger'];
}

/** pino options: the level, and passwords, tokens and credential headers censored (`redactSecrets`). */
export function loggerOptions(
  level: string,
  stream?: { write(line: string): void },
): FastifyServerOptions['logger'] {
  return { level, formatters: { log: redactSecrets }, ...(stream ? { stream } : {}) };
}

/** Builds the HTTP application over an open, migrated database. */
export async function buildApp(options: BuildAppOptions) {
  const { config, database } = options;
  const app = Fastify({
    logger: options.logger ?? loggerOptions(config.logLevel),
    logController: new OneLinePerRequest(),
    genReqId: requestIdFor,
    requestIdHeader: false,
    bodyLimit: config.http.bodyLimitBytes,
    requestTimeout: config.http.requestTimeoutMs,
    connectionTimeout: config.http.connectionTimeoutMs,
    // Node checks requestTimeout on a timer (30 s by default) and, for a request body, only
    // when the server was created with it: without these a client trickling its headers is cut
    // 30 s late, one trickling its body after 60-90 s (test/hardening/abuse.test.ts).
    http: {
      requestTimeout: config.http.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(1_000, config.http.requestTimeoutMs),
    },
    keepAliveTimeout: config.http.keepAliveTimeoutMs,
    trustProxy: config.trustProxy,
    return503OnClosing: false,
    clientErrorHandler,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    ajv: {
      customOptions: { removeAdditional: false, allErrors: true, coerceTypes: 'array', useDefaults: true },
    },
    schemaController: { compilersFactory: { buildSerializer: sharedSerializers() } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorate('config', config);
  app.decorate('database', database);
  app.decorate('db', database.db);
  app.decorate('lifecycle', { shuttingDown: false });
  app.decorate(
    'tokens',
    new AccessTokens({
      secret: jwtSecret(config),
      issuer: config.auth.issuer,
      accessTtlSeconds: config.auth.accessTtlSeconds,
    }),
  );
  app.decorateRequest<Caller | null>('caller', null);

  app.setErrorHandler(handleError);
  app.setNotFoundHandler(notFoundHandler);
  app.addSchema(ErrorBody);
  app.addSchema(Pagination);
  app.addHook('onRoute', documentErrorResponses);
  app.addHook('onRoute', installAccessGuard);
  app.decorate('routeList', [] as RouteOptions[]);
  app.addHook('onRoute', (route) => {
    app.routeList.push(route);
  });

  // The API answers JSON only, so its CSP is a fixed, strictest one; the docs pages set theirs
  // (staticCSP). helmet's other headers are computed once.
  const fixedHeaders = { ...securityHeaders(), 'content-security-policy': API_CSP };

  // One callback-style hook for every request: cheaper than several async ones on the hot path.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    reply.headers(fixedHeaders);
    if (app.lifecycle.shuttingDown) {
      reply.header('connection', 'close');
      return done(new AppError('SERVICE_UNAVAILABLE', 'the service is shutting down'));
    }
    request.caller = GUEST;
    const authorization = request.headers.authorization;
    if (authorization === undefined) return done();
    resolveCaller(app.tokens, authorization).then((caller) => {
      request.caller = caller;
      done();
    }, done);
  });

  // Keep-alive sockets that finish an in-flight request during close would otherwise hold the
  // close open until their idle timeout; close them as soon as they go idle.
  let idleSweep: NodeJS.Timeout | undefined;
  app.addHook('preClose', async () => {
    app.lifecycle.shuttingDown = true;
    idleSweep = setInterval(() => app.server.closeIdleConnections(), 50);
  });
  app.addHook('onClose', async () => clearInterval(idleSweep));

  await app.register(cors, {
    origin: config.cors.origins.length ? config.cors.origins : false,
    exposedHeaders: ['X-Cart-Token', 'X-Request-Id', 'Retry-After'],
    allowedHeaders: [
      'Authorization',
      'Content-Type',
      'X-Cart-Token',
      'X-Request-Id',
      'Idempotency-Key',
      'If-None-Match',
    ],
    maxAge: 600,
  });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Shop REST API',
        version: '0.1.0',
        description: 'Storefront and back-office REST interface. Errors use the ErrorBody envelope.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true });

  // Before the modules: routes ask for limits with config.rateLimit (src/modules/auth/rate-limit.ts).
  await registerRateLimit(app, config);
  for (const module of modules) await app.register(module);

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
export type AnyApp = FastifyInstance;
