import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { causeChain, isTransactionConflict } from '../db/errors.ts';
import { AppError, type ErrorCode, type ErrorDetail, errorBody, GENERIC_ERRORS } from './errors.ts';
import { webUrlMessage } from './web-url.ts';
import type { UnavailableLog } from './unavailable-log.ts';

interface AjvIssue {
  keyword?: string;
  instancePath?: string;
  message?: string;
  params?: Record<string, unknown>;
}

/** Turns Ajv's findings into one detail per field, named the way the client wrote it. */
function validationDetails(error: FastifyError): ErrorDetail[] {
  const context = error.validationContext ?? 'body';
  const issues = (error.validation ?? []) as AjvIssue[];
  return issues.map((issue) => {
    let field = (issue.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.');
    const missing = issue.params?.missingProperty ?? issue.params?.additionalProperty;
    if (typeof missing === 'string') field = field ? `${field}.${missing}` : missing;
    // Ajv says "must NOT have additional properties" of the object; the detail is about the field.
    const message =
      issue.keyword === 'additionalProperties'
        ? 'is not a known field'
        : (issue.keyword === 'pattern' && webUrlMessage(issue.params?.pattern)) || issue.message;
    return { field: field || context, message: message ?? 'is invalid' };
  });
}

/** Fastify's own error codes that are the client's fault, mapped to ours. */
const FASTIFY_CLIENT_ERRORS: Record<string, keyof typeof GENERIC_ERRORS> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'VALIDATION_FAILED',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'VALIDATION_FAILED',
  FST_ERR_CTP_INVALID_JSON_BODY: 'VALIDATION_FAILED',
  FST_ERR_VALIDATION: 'VALIDATION_FAILED',
};

const MALFORMED_MULTIPART = /^(Unexpected end of multipart data|Multipart: Boundary not found)$/;

/**
 * The one place where any thrown error becomes an HTTP answer. Database outages are logged through
 * `unavailable`: the first with its stack, the rest counted.
 */
export function errorHandler(unavailable: UnavailableLog) {
  return function handleError(
    error: FastifyError | AppError,
    request: FastifyRequest,
    reply: FastifyReply,
  ): FastifyReply {
    return answerError(error, request, reply, unavailable);
  };
}

function answerError(
  error: FastifyError | AppError,
  request: FastifyRequest,
  reply: FastifyReply,
  unavailable: UnavailableLog,
): FastifyReply {
  if (error instanceof AppError) {
    if (error.status >= 500 && isDatabaseUnavailable(error.cause)) {
      unavailable.failed(request.log, loggable(error.cause), 'database unavailable');
    } else if (error.status >= 500) request.log.error({ err: error }, 'request failed');
    return reply.status(error.status).send(errorBody(error.code, error.message, error.details));
  }
  if (error.validation) {
    const details = validationDetails(error);
    const message = details.map((d) => `${d.field} ${d.message}`).join('; ');
    return reply.status(400).send(errorBody('VALIDATION_FAILED', message, details));
  }
  const mapped = error.code ? FASTIFY_CLIENT_ERRORS[error.code] : undefined;
  if (mapped) {
    const message = error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? 'request body is too large' : error.message;
    return reply.status(GENERIC_ERRORS[mapped].status).send(errorBody(mapped, message));
  }
  if (MALFORMED_MULTIPART.test(error.message)) {
    // The multipart parser's own errors carry no code: a body cut short or without its boundary.
    return reply.status(400).send(errorBody('VALIDATION_FAILED', 'the multipart body is malformed'));
  }
  if (error.statusCode === 429) {
    return reply.status(429).send(errorBody('RATE_LIMITED', 'too many requests, retry later'));
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    // Another client error raised by a plugin: keep its status, never its internals.
    const code: ErrorCode = error.statusCode === 404 ? 'NOT_FOUND' : 'VALIDATION_FAILED';
    return reply.status(error.statusCode).send(errorBody(code, 'the request could not be processed'));
  }
  if (causeChain(error).some((e) => typeof e.code === 'string' && UNSTORABLE_TEXT.has(e.code))) {
    // A NUL character (or another the database encoding cannot hold) in any text the client sent.
    return reply
      .status(400)
      .send(
        errorBody('VALIDATION_FAILED', 'a text value contains a character that cannot be stored (e.g. NUL)'),
      );
  }
  if (causeChain(error).some((e) => e.code === NUMBER_OUT_OF_RANGE)) {
    // A sum the column cannot hold (a balance or stock pushed past int4, a huge LIMIT): the
    // statement failed, so its transaction rolled back and nothing changed.
    return reply
      .status(422)
      .send(errorBody('UNPROCESSABLE', 'a number is out of the range the database can store'));
  }
  if (isTransactionConflict(error)) {
    // Rolled back whole by PostgreSQL to break a deadlock: nothing was written, a retry is safe.
    request.log.warn(loggable(error), 'transaction conflict');
    return reply
      .status(409)
      .header('retry-after', '1')
      .send(errorBody('CONFLICT', 'the write met a concurrent one and was not made; retry'));
  }
  if (isDatabaseUnavailable(error)) {
    unavailable.failed(request.log, loggable(error), 'database unavailable');
    return reply
      .status(503)
      .header('retry-after', '1')
      .send(errorBody('SERVICE_UNAVAILABLE', 'the service is temporarily unavailable'));
  }
  request.log.error(loggable(error), 'unexpected fault');
  return reply.status(500).send(errorBody('INTERNAL', 'internal error'));
}

// Lost or refused connections, and PostgreSQL's own: admin/crash shutdown, starting up,
// too many connections, statement timeout, connection exceptions.
const CONNECTION_ERRORS = new Set([
  ...['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE'],
  // postgres.js (src/db/postgres-statements.ts): a connection lost, refused in time or closed, an answer not received.
  ...['CONNECTION_CLOSED', 'CONNECTION_DESTROYED', 'CONNECTION_ENDED', 'CONNECT_TIMEOUT', 'QUERY_TIMEOUT'],
  ...['57P01', '57P02', '57P03', '57014', '53300', '08000', '08001', '08003', '08004', '08006'],
]);
const UNAVAILABLE_MESSAGE =
  /Connection terminated|timeout exceeded when trying to connect|connection timeout|Query read timeout|Client has encountered a connection error|Connection is closed|the database system is (starting up|shutting down|in recovery mode)/i;

/** character_not_in_repertoire (a NUL byte), untranslatable_character. */
const UNSTORABLE_TEXT = new Set(['22021', '22P05']);
/** numeric_value_out_of_range: e.g. integer out of range. */
const NUMBER_OUT_OF_RANGE = '22003';

/** True for a lost, refused or timed-out database connection, also when wrapped. */
export function isDatabaseUnavailable(error: unknown): boolean {
  return causeChain(error).some(
    ({ code, message }) =>
      (typeof code === 'string' && CONNECTION_ERRORS.has(code)) ||
      (typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message)),
  );
}

/**
 * drizzle's error message carries the SQL parameters (password hashes, e-mail addresses): log
 * the driver's error and the statement, never the values.
 */
export function loggable(error: unknown): Record<string, unknown> {
  const wrapped = error as { query?: unknown; params?: unknown; cause?: unknown };
  if (typeof wrapped.query === 'string' && Array.isArray(wrapped.params)) {
    return { err: wrapped.cause ?? new Error('query failed'), query: wrapped.query };
  }
  return { err: error };
}

/**
 * Answers errors Node's HTTP parser raises before Fastify sees a request (oversize headers,
 * malformed request lines, a request not received within requestTimeout) with the same JSON
 * envelope, then destroys the socket: a client still trickling bytes must not keep it open.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: import('node:net').Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const [status, reason, body] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [
          431,
          'Request Header Fields Too Large',
          errorBody('HEADERS_TOO_LARGE', 'request headers are too large'),
        ]
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', errorBody('REQUEST_TIMEOUT', 'the request was not received in time')]
        : [400, 'Bad Request', errorBody('VALIDATION_FAILED', 'malformed HTTP request')];
  const text = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\n` +
      `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\n` +
      `Connection: close\r\n\r\n${text}`,
    () => socket.destroy(),
  );
}
