import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';

/**
 * One log line per request, written when it completes: Fastify's default of two lines
 * (incoming and completed) costs a large share of throughput on small answers.
 */
export class OneLinePerRequest extends LogController {
  constructor() {
    super({ requestIdLogLabel: 'reqId' });
  }

  override incomingRequest(): void {}

  override requestCompleted(
    _error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    request.log.info(
      requestLine(request.method, request.url, reply.statusCode, reply.elapsedTime),
      REQUEST_LINE,
    );
  }
}

/** The message of a request's one line. */
export const REQUEST_LINE = 'request';

/**
 * The fields of a request's one line, beside the logger's `reqId`: written by OneLinePerRequest
 * and by a hit answered before Fastify (src/resources/early-hits.ts), so both read alike.
 */
export function requestLine(method: string, url: string, status: number, elapsedMs: number) {
  return { method, url, status, ms: Math.round(elapsedMs) };
}

/** A batch is written once it holds this many characters, or FLUSH_MS after its first line. */
const BATCH_CHARS = 16_384;
const FLUSH_MS = 50;

/**
 * The log's stdout, written a batch of lines at a time. pino's default destination hands the lines
 * to the thread pool a few at a time, and at thousands of requests a second that hand-over cost a
 * cached read a seventh of its CPU (docs/performance.md, "The shared cache"). A line waits at most
 * FLUSH_MS; what is pending is written when the process exits, and at once for a fatal line.
 */
class BatchedStdout {
  private pending: string[] = [];
  private chars = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor() {
    process.once('exit', () => this.flushSync());
  }

  write(line: string): void {
    this.pending.push(line);
    this.chars += line.length;
    if (this.chars >= BATCH_CHARS) this.flushSync();
    else this.timer ??= setTimeout(() => this.flushSync(), FLUSH_MS).unref();
  }

  /** pino calls it after a fatal line; stdout writes to files and pipes are synchronous. */
  flushSync(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.length === 0) return;
    const text = this.pending.join('');
    this.pending = [];
    this.chars = 0;
    process.stdout.write(text);
  }
}

let stdout: BatchedStdout | undefined;

/** The one batched stdout of the process (every app built in it logs there unless given a stream). */
export function batchedStdout(): { write(line: string): void } {
  stdout ??= new BatchedStdout();
  return stdout;
}

const CENSOR = '[redacted]';
/** Field names whose value never reaches a log: passwords, refresh tokens, credential headers. */
const SECRET_FIELDS = new Set([
  'password',
  'currentPassword',
  'newPassword',
  'passwordHash',
  'refresh_token',
  'authorization',
  'cookie',
  'x-cart-token',
  'x-device-token',
  'device_token',
]);

/** `object` with its secret fields censored, or `object` itself (no copy) when it holds none. */
function censorFields(object: Record<string, unknown>): Record<string, unknown> {
  for (const key in object) {
    if (SECRET_FIELDS.has(key)) {
      const copy = { ...object };
      for (const k in copy) if (SECRET_FIELDS.has(k)) copy[k] = CENSOR;
      return copy;
    }
  }
  return object;
}

/**
 * pino's `formatters.log`: censors secret fields at the top of a log object and one level down
 * (`{ body: { password } }`, `{ headers: { authorization } }`); a logged `req` never carries headers
 * (Fastify's serializer). Request lines hold no secret and pass through without a copy: pino's
 * path-based `redact` copied every log object (a sixth of the bytes a catalog read allocated).
 */
export function redactSecrets(object: Record<string, unknown>): Record<string, unknown> {
  let result = censorFields(object);
  for (const key in result) {
    const value = result[key];
    if (typeof value !== 'object' || value === null || Array.isArray(value)) continue;
    const censored = censorFields(value as Record<string, unknown>);
    if (censored === value) continue;
    if (result === object) result = { ...object };
    result[key] = censored;
  }
  return result;
}
