import { decorateLocale } from './http/locale.ts';
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
import { errorHandler, isDatabaseUnavailable, loggable } from './http/error-handler.ts';
import { AppError, errorBodySchema, errorCodes, useErrorCodes } from './http/errors.ts';
import { Pagination } from './http/envelope.ts';
import { gettingStarted } from './http/getting-started.ts';
import { routeNotFound } from './http/not-found.ts';
import { documentConditionalReads, documentErrorResponses } from './http/openapi.ts';
import { finishDocument } from './http/openapi-document.ts';
import { apiSecurityHeaders } from './http/security-headers.ts';
import { corsHeaders, corsOptions } from './http/cors.ts';
import type { OwnHeaders } from './http/own-headers.ts';
import { loggerOptions, serverOptions } from './http/server-options.ts';
import { UnavailableLog } from './http/unavailable-log.ts';
import { registerRateLimit } from './http/rate-limit.ts';
import { authenticateWith, Sessions } from './modules/auth/sessions.ts';
import { storedSigningSecret } from './modules/auth/sessions.repo.ts';
import { AccessTokens } from './modules/auth/tokens.ts';
import { recordWrite } from './modules/audit/audit.ts';
import { apiTags, moduleErrorCodes, modules } from './modules/index.ts';
import { metricsModule } from './modules/metrics/metrics.routes.ts';
import { settingsSource } from './modules/settings/settings.service.ts';
import { answerHitsEarly, installResponseCache } from './resources/index.ts';

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

export { loggerOptions };

function createServer(options: BuildAppOptions) {
  const logger = options.logger ?? loggerOptions(options.config.logLevel);
  return Fastify(serverOptions(options.config, logger)).withTypeProvider<TypeBoxTypeProvider>();
}
type Server = ReturnType<typeof createServer>;

/** Builds the HTTP application over an open, migrated database. */
export async function buildApp(options: BuildAppOptions) {
  const { config, database } = options;
  const app = createServer(options);
  if (config.tracing.endpoint) await traceRequests(app, config.tracing.endpoint);
  app.decorate('config', config);
  app.decorate('database', database);
  app.decorate('db', database.db);
  app.decorate('lifecycle', { shuttingDown: false });
  const unavailable = new UnavailableLog(app.log);
  app.addHook('onClose', async () => unavailable.stop());
  const sessions = await startSessions(app, unavailable);
  // What the generic layers need of the features, handed over here.
  app.decorate('settingsSource', settingsSource(config));
  app.decorate('recordWrite', recordWrite);
  useErrorCodes(moduleErrorCodes);

  // The headers every answer gets from the onRequest hooks, made once (src/http/own-headers.ts).
  const own: OwnHeaders = { security: apiSecurityHeaders(), cors: corsHeaders(config) };
  installRouteChecks(app, unavailable);
  identifyCallers(app, authenticateWith(sessions), own.security);
  syncRevocationsAfterWrites(app, sessions);
  closeIdleConnectionsOnClose(app);

  // Before every route: its onResponse hook observes them all (when metrics are configured).
  await app.register(metricsModule);
  await app.register(cors, corsOptions(config));
  await registerDocumentation(app);
  // Before the modules: routes ask for limits with config.rateLimit (src/http/rate-limit.ts).
  await registerRateLimit(app, config);
  // Before the modules, after the limits (a hit is still counted): the routes that declare
  // config.cache get its hooks (docs/performance.md, "The shared cache").
  await installResponseCache(app, config, database, own);
  for (const module of modules) await app.register(module);
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  answerGuestHitsEarly(app, own);
  return app;
}

/**
 * A guest's kept answer is sent before Fastify sees the request (src/resources/early-hits.ts),
 * logged and measured like any other. Not when traces are sent: every request has its span.
 */
function answerGuestHitsEarly(app: Server, own: OwnHeaders): void {
  if (app.responseCache === undefined || app.config.tracing.endpoint) return;
  answerHitsEarly(app.server, app.responseCache, {
    own,
    log: app.log,
    observe: app.observeRequest,
    closing: () => app.lifecycle.shuttingDown,
  });
}

async function traceRequests(app: Server, endpoint: string): Promise<void> {
  // Imported only here: without an endpoint no tracing code is loaded (docs/operations.md).
  const { startTracing } = await import('./tracing.ts');
  const tracing = startTracing(endpoint);
  await app.register(tracing.plugin);
  app.addHook('onClose', () => tracing.shutdown());
}

/** The signing key, the sessions and their revocation poll; an outage of the poll is counted. */
async function startSessions(app: Server, unavailable: UnavailableLog): Promise<Sessions> {
  const { config, database } = app;
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
  app.decorate('tokens', tokens);
  app.decorate('sessions', sessions);
  app.addHook('onReady', () => sessions.start());
  app.addHook('onClose', async () => sessions.stop());
  return sessions;
}

/** The error answers, and what every route must declare and gets documented (onRoute hooks). */
function installRouteChecks(app: Server, unavailable: UnavailableLog): void {
  app.setErrorHandler(errorHandler(unavailable));
  app.setNotFoundHandler(routeNotFound(() => app.routeList));
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
}

/** One callback-style hook for every request: cheaper than several async ones on the hot path. */
function identifyCallers(
  app: Server,
  authenticate: Authenticate,
  fixedHeaders: Readonly<Record<string, string>>,
): void {
  app.decorateRequest<Caller | null>('caller', null);
  decorateLocale(app);
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
}

/**
 * A write that may have ended sessions (logout, password, an account disabled or its roles
 * changed) brings this instance's revocation list up to date before it answers, so the revoked
 * tokens are refused here at once; other instances follow within REVOCATION_POLL_MS.
 */
function syncRevocationsAfterWrites(app: Server, sessions: Sessions): void {
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    if (methods.every((m) => m === 'GET' || m === 'HEAD')) return;
    route.onSend = [route.onSend ?? []].flat().concat(syncRevocationsAfterWrite);
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
}

/**
 * Keep-alive sockets that finish an in-flight request during close would otherwise hold the
 * close open until their idle timeout; close them as soon as they go idle.
 */
function closeIdleConnectionsOnClose(app: Server): void {
  let idleSweep: NodeJS.Timeout | undefined;
  app.addHook('preClose', async () => {
    app.lifecycle.shuttingDown = true;
    idleSweep = setInterval(() => app.server.closeIdleConnections(), 50);
  });
  app.addHook('onClose', async () => clearInterval(idleSweep));
}

/** The OpenAPI document (finished from the routes and the modules' tags and codes) and /docs. */
async function registerDocumentation(app: Server): Promise<void> {
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
}

export type App = Awaited<ReturnType<typeof buildApp>>;
