import { type Static, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { AuthConfig, CorsConfig, HttpConfig, RateLimitConfig, StaticUser } from './config/server.ts';
import { CacheConfig, MetricsConfig, TracingConfig } from './config/operations.ts';
import { JobsConfig, MailConfig, WebhooksConfig } from './config/delivery.ts';
import { ImportConfig } from './config/import.ts';
import { MediaConfig } from './config/media.ts';
import { PaymentsConfig, VatIdsConfig } from './config/payments.ts';
import { ConfigError, type Env, rawConfigFrom } from './config/sources.ts';

export { ConfigError };

/**
 * Secrets that were once written in this repository's files: public, so never accepted, in any
 * environment. Without a configured secret the service generates its own key (src/modules/auth).
 */
const PUBLISHED_SECRETS = ['demo-secret-change-me-before-going-live-0123456789'];

/** Exactly these: a misspelt `Production` or `prod` would otherwise skip the production checks. */
const NODE_ENVS = ['development', 'test', 'production'];

export const ConfigSchema = Type.Object(
  {
    nodeEnv: Type.Union([Type.Literal('development'), Type.Literal('test'), Type.Literal('production')], {
      default: 'development',
    }),
    host: Type.String({ default: '127.0.0.1' }),
    port: Type.Integer({ minimum: 0, maximum: 65535, default: 3000 }),
    dataDir: Type.String({ default: './data' }),
    databaseUrl: Type.Optional(Type.String({ pattern: '^postgres(ql)?://' })),
    databasePoolSize: Type.Integer({ minimum: 1, maximum: 200, default: 10 }),
    redisUrl: Type.Optional(Type.String({ pattern: '^rediss?://' })),
    logLevel: Type.Union(
      ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
      { default: 'info' },
    ),
    seedDemo: Type.Boolean({ default: true }),
    trustProxy: Type.Boolean({ default: false }),
    http: HttpConfig,
    auth: AuthConfig,
    staticUsers: Type.Array(StaticUser, { default: [] }),
    settings: Type.Record(Type.String(), Type.Unknown(), { default: {} }),
    rateLimit: RateLimitConfig,
    cors: CorsConfig,
    /** The job queue (pg-boss, in the shop's own database) that delivers webhooks and e-mail. */
    jobs: JobsConfig,
    webhooks: WebhooksConfig,
    /** GET /metrics (Prometheus text): off unless a token or a port is set (docs/operations.md). */
    metrics: MetricsConfig,
    /** The in-process cache of storefront answers (docs/performance.md, "The shared cache"). */
    cache: CacheConfig,
    /** OTLP over HTTP: traces go to `<endpoint>/v1/traces` when set (OTEL_EXPORTER_OTLP_ENDPOINT). */
    tracing: TracingConfig,
    /** Card payments through a provider (docs/payments.md). */
    payments: PaymentsConfig,
    /** Uploaded images and their resized copies (docs/media.md). */
    media: MediaConfig,
    /** Catalog import from CSV (docs/import-export.md). */
    import: ImportConfig,
    /** B2B VAT ids (docs/shipping-and-tax.md): who confirms that a well-formed id is registered. */
    vatIds: VatIdsConfig,
    mail: MailConfig,
  },
  { additionalProperties: false },
);

export type Config = Static<typeof ConfigSchema>;

/** Webhook targets on loopback, private or link-local addresses: allowed outside production unless set. */
export function privateWebhookTargetsAllowed(config: Config): boolean {
  return config.webhooks.allowPrivateTargets ?? config.nodeEnv !== 'production';
}

/** Webhook targets must be https:// in production (docs/events.md). */
export function webhookTargetsHttpsOnly(config: Config): boolean {
  return config.nodeEnv === 'production';
}

/** Without SMTP, development prints each message to the log; elsewhere it only stays in the outbox. */
export function mailPrintedToLog(config: Config): boolean {
  return config.nodeEnv === 'development';
}

/** The provider that serves payWay "card", or none: the test provider never runs in production. */
export function cardProviderOf(config: Config): 'test' | 'stripe' | 'none' {
  return config.payments.cardProvider ?? (config.nodeEnv === 'production' ? 'none' : 'test');
}

/** Where uploaded images are kept: a bucket when configured, else a directory, in memory for `memory://`. */
export type MediaStorageChoice =
  | { kind: 's3'; s3: NonNullable<Config['media']['s3']> }
  | { kind: 'memory' }
  | { kind: 'dir'; dir: string };

export function mediaStorageOf(config: Config): MediaStorageChoice {
  if (config.media.s3) return { kind: 's3', s3: config.media.s3 };
  if (config.media.dir) return { kind: 'dir', dir: config.media.dir };
  if (config.dataDir === 'memory://') return { kind: 'memory' };
  return { kind: 'dir', dir: `${config.dataDir.replace(/\/+$/, '')}/media` };
}

/** The demo shop is never loaded into a production database, whatever `seedDemo` says. */
export function demoShopAllowed(config: Config): boolean {
  return config.seedDemo && config.nodeEnv !== 'production';
}
export type StaticUserConfig = Static<typeof StaticUser>;

/**
 * Builds the configuration from an optional file and the environment, the
 * environment winning. Throws ConfigError naming the first offending key.
 */
export function loadConfig(env: Env = process.env, cwd = process.cwd()): Config {
  const raw = rawConfigFrom(env, cwd);
  // The run mode is read here, beside the choices it makes (production checks, defaults below).
  if (env.NODE_ENV) raw.nodeEnv = env.NODE_ENV;
  return parseConfig(raw);
}

/** Validates a raw object (file shape) and fills defaults. */
export function parseConfig(raw: unknown): Config {
  const withDefaults = Value.Default(ConfigSchema, structuredClone(raw));
  const first = Value.Errors(ConfigSchema, withDefaults).First();
  if (first?.path === '/nodeEnv') {
    throw new ConfigError(
      `configuration key "nodeEnv" (NODE_ENV): ${JSON.stringify(first.value)} is not one of ${NODE_ENVS.join(', ')}`,
    );
  }
  if (first) {
    const key = first.path.replace(/^\//, '').replaceAll('/', '.') || '(root)';
    const message = first.message.startsWith('Unexpected property') ? 'unknown key' : first.message;
    throw new ConfigError(`configuration key "${key}": ${message}`);
  }
  const config = withDefaults as Config;
  for (const [i, user] of config.staticUsers.entries()) {
    if (!user.password && !user.passwordHash) {
      throw new ConfigError(`configuration key "staticUsers.${i}": needs password or passwordHash`);
    }
  }
  assertSecretUsable(config.auth.secret);
  assertCardProviderUsable(config);
  if (config.nodeEnv === 'production') assertProductionSafe(config);
  return config;
}

/** A configured secret is held to the same floor everywhere; none configured means a generated key. */
function assertSecretUsable(secret: string): void {
  if (PUBLISHED_SECRETS.includes(secret)) {
    throw new ConfigError(
      'configuration key "auth.secret" (JWT_SECRET): this secret is published; choose your own',
    );
  }
  if (secret && Buffer.byteLength(secret) < 32) {
    throw new ConfigError('configuration key "auth.secret" (JWT_SECRET): must be at least 32 bytes');
  }
}

/** Stripe needs its API key and the webhook's signing secret: without them no card is taken or trusted. */
function assertCardProviderUsable(config: Config): void {
  if (config.payments.cardProvider !== 'stripe') return;
  for (const key of ['secretKey', 'webhookSecret'] as const) {
    if (!config.payments.stripe[key]) {
      throw new ConfigError(
        `configuration key "payments.stripe.${key}": required when payments.cardProvider is stripe`,
      );
    }
  }
}

function assertProductionSafe(config: Config): void {
  const secret = config.auth.secret;
  if (!secret) throw new ConfigError('configuration key "auth.secret" (JWT_SECRET): required in production');
  if (/demo|change-?me/i.test(secret)) {
    throw new ConfigError('configuration key "auth.secret" (JWT_SECRET): the demo secret is not allowed');
  }
  if (config.payments.cardProvider === 'test') {
    throw new ConfigError(
      'configuration key "payments.cardProvider": the test provider takes no money and is refused in production',
    );
  }
  const plain = config.staticUsers.findIndex((u) => u.password !== undefined);
  if (plain >= 0) {
    throw new ConfigError(
      `configuration key "staticUsers.${plain}.password": plain-text passwords are not allowed in production; use passwordHash`,
    );
  }
}
