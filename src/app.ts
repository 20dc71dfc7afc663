import cors from '@fastify/cors';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, {
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  type RouteOptions,
} from 'fastify';
import type { Config } from './config.ts';
import type { Database, Db } from './db/client.ts';
import { type Authenticate, type Caller, GUEST, installAccessGuard, resolveCaller } from './http/access.ts';
import { requireAuditDeclaration } from './http/audit.ts';
import { clientErrorHandler, errorHandler, isDatabaseUnavailable, loggable } from './http/error-handler.ts';
import { AppError, errorBodySchema, errorCodes, useErrorCodes } from './http/errors.ts';
import { Pagination } from './http/envelope.ts';
import { gettingStarted } from './http/getting-started.ts';
import { OneLinePerRequest, redactSecrets } from './http/logging.ts';
import { routeNotFound } from './http/not-found.ts';
import { documentConditionalReads, documentErrorResponses } from './http/openapi.ts';
import { finishDocument } from './http/openapi-document.ts';
import { securityHeaders } from './http/security-headers.ts';
import { sharedSerializers } from './http/serializers.ts';
import { requestIdFor } from './http/request-id.ts';
import { UnavailableLog } from './http/unavailable-log.ts';
import { typedBodies } from './http/validators.ts';
import { registerRateLimit } from './http/rate-limit.ts';
import { authenticateWith, Sessions } from './modules/auth/sessions.ts';
import { storedSigningSecret } from './modules/auth/sessions.repo.ts';
import { AccessTokens } from './modules/auth/tokens.ts';
import { recordWrite } from './modules/audit/audit.ts';
import { apiTags, moduleErrorCodes, modules } from './modules/index.ts';
import { metricsModule } from './modules/metrics/metrics.routes.ts';
import { settingsSource } from './modules/settings/settings.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: Database;
    db: Db;
    lifecycle: { shuttingDown: boolean };
    tokens: AccessTokens;
    sessions: Sessions;
    /** Every route as registered, for the documentation and access-control tests. */
    routeList: RouteOptions[];
  }
}

const API_CSP = "default-src 'none'; frame-ancestors 'none'";
/** How often each instance reads the session revocation feed (revocations elsewhere take effect within it). */
const REVOCATION_POLL_MS = 250;

/** Authentication calls and back-office writes are the only requests that can end sessions. */
function mayEndSessions(request: { url: string; caller: Caller }): boolean {
  return request.caller.kind === 'admin' || request.url.startsWith('/rest/auth/');
}

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
    // Type coercion is chosen per part of the request by typedBodies (src/http/validators.ts).
    ajv: { customOptions: { removeAdditional: false, allErrors: true, useDefaults: true } },
    schemaController: {
      compilersFactory: { buildSerializer: sharedSerializers(), buildValidator: typedBodies() },
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  if (config.tracing.endpoint) {
    // Imported only here: without an endpoint no tracing code is loaded (docs/operations.md).
    const { startTracing } = await import('./tracing.ts');
    const tracing = startTracing(config.tracing.endpoint);
    await app.register(tracing.plugin);
    app.addHook('onClose', () => tracing.shutdown());
  }
  app.decorate('config', config);
  app.decorate('database', database);
  app.decorate('db', database.db);
  app.decorate('lifecycle', { shuttingDown: false });
  const unavailable = new UnavailableLog(app.log);
  app.addHook('onClose', async () => unavailable.stop());
  const tokens = new AccessTokens({
    // Without a configured secret, the key generated at the first start and kept in the database.
    secret: config.auth.secret || (await storedSigningSecret(database.db)),
    issuer: config.auth.issuer,
    accessTtlSeconds: config.auth.accessTtlSeconds,
  });
  const sessions = new Sessions(database.db, tokens, {
    accessTtlSeconds: config.auth.accessTtlSeconds,
    refreshTtlSeconds: config.auth.refreshTtlSeconds,
    pollMs: REVOCATION_POLL_MS,
    // The poll reads the database every 250 ms: its failures count into a running outage, and its
    // first success after one ends it.
    onPollError: (err) => {
      if (isDatabaseUnavailable(err)) unavailable.failed(app.log, loggable(err), 'database unavailable');
      else app.log.warn({ err }, 'could not read the session revocation feed');
    },
    onPollOk: () => unavailable.answered(),
  });
  const authenticate: Authenticate = authenticateWith(sessions);
  app.decorate('tokens', tokens);
  app.decorate('settingsSource', settingsSource(config));
  app.decorate('recordWrite', recordWrite);
  app.decorate('sessions', sessions);
  app.decorateRequest<Caller | null>('caller', null);

  app.setErrorHandler(errorHandler(unavailable));
  app.setNotFoundHandler(routeNotFound(() => app.routeList));
  useErrorCodes(moduleErrorCodes);
  app.addSchema(errorBodySchema());
  app.addSchema(Pagination);
  app.addHook('onRoute', documentErrorResponses);
  app.addHook('onRoute', documentConditionalReads);
  app.addHook('onRoute', installAccessGuard);
  app.addHook('onRoute', requireAuditDeclaration);
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
    if (authorization === undefined || request.routeOptions.config.ownAuthorization) return done();
    resolveCaller(authenticate, authorization).then((caller) => {
      request.caller = caller;
      done();
    }, done);
  });

  // A write that may have ended sessions (logout, password, an account disabled or its roles
  // changed) brings this instance's revocation list up to date before it answers, so the
  // revoked tokens are refused here at once; other instances follow within REVOCATION_POLL_MS.
  app.addHook('onRoute', (route) => {
    const methods = ([] as string[]).concat(route.method);
    if (methods.every((m) => m === 'GET' || m === 'HEAD')) return;
    const existing = route.onSend ?? [];
    route.onSend = [...(Array.isArray(existing) ? existing : [existing]), syncRevocationsAfterWrite];
  });
  function syncRevocationsAfterWrite(
    request: FastifyRequest,
    reply: FastifyReply,
    payload: unknown,
    done: (err: Error | null, payload: unknown) => void,
  ): void {
    if (reply.statusCode >= 400 || !mayEndSessions(request)) {
      done(null, payload);
      return;
    }
    sessions.sync().then(
      () => done(null, payload),
      (err) => {
        // The answer still goes out; the next poll brings the list up to date.
        request.log.warn({ err }, 'could not read the session revocation feed');
        done(null, payload);
      },
    );
  }
  app.addHook('onReady', () => sessions.start());
  app.addHook('onClose', async () => sessions.stop());

  // Keep-alive sockets that finish an in-flight request during close would otherwise hold the
  // close open until their idle timeout; close them as soon as they go idle.
  let idleSweep: NodeJS.Timeout | undefined;
  app.addHook('preClose', async () => {
    app.lifecycle.shuttingDown = true;
    idleSweep = setInterval(() => app.server.closeIdleConnections(), 50);
  });
  app.addHook('onClose', async () => clearInterval(idleSweep));

  // Before every route: its onResponse hook observes them all (when metrics are configured).
  await app.register(metricsModule);

  await app.register(cors, {
    origin: config.cors.origins.length ? config.cors.origins : false,
    exposedHeaders: ['X-Cart-Token', 'X-Request-Id', 'Retry-After'],
    allowedHeaders: [
      'Authorization',
      'Content-Type',
      'X-Cart-Token',
      'X-Device-Token',
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
        license: { name: 'MIT', identifier: 'MIT' },
        description: gettingStarted(),
      },
      // Relative: the paths are served by whichever host served the document.
      servers: [{ url: '/', description: 'This service' }],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    transformObject: (document) =>
      finishDocument('openapiObject' in document ? document.openapiObject : document.swaggerObject, {
        tags: apiTags,
        errorCodes: errorCodes(),
      }),
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true });

  // Before the modules: routes ask for limits with config.rateLimit (src/http/rate-limit.ts).
  await registerRateLimit(app, config);
  for (const module of modules) await app.register(module);

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
