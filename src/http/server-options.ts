import type { Server } from 'node:http';
import type { FastifyHttpOptions, FastifyServerOptions } from 'fastify';
import type { Config } from '../config.ts';
import { clientErrorHandler } from './error-handler.ts';
import { batchedStdout, OneLinePerRequest, redactSecrets } from './logging.ts';
import { requestIdFor } from './request-id.ts';
import { sharedSerializers } from './serializers.ts';
import { typedBodies } from './validators.ts';

/**
 * pino options: the level, passwords, tokens and credential headers censored (`redactSecrets`), and
 * the lines written to `stream`, by default stdout a batch at a time (`batchedStdout`).
 */
export function loggerOptions(
  level: string,
  stream?: { write(line: string): void },
): FastifyServerOptions['logger'] {
  return { level, formatters: { log: redactSecrets }, stream: stream ?? batchedStdout() };
}

/** The Fastify server's options: limits and timeouts from the configuration, logging, validation. */
export function serverOptions(
  config: Config,
  logger: FastifyServerOptions['logger'],
): FastifyHttpOptions<Server> {
  return {
    logger,
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
  };
}
