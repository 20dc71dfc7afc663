import { type Static, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { ConfigError, type Env, rawConfigFrom } from './config-sources.ts';

export { ConfigError };

/**
 * Secrets that were once written in this repository's files: public, so never accepted, in any
 * environment. Without a configured secret the service generates its own key (src/modules/auth).
 */
const PUBLISHED_SECRETS = ['demo-secret-change-me-before-going-live-0123456789'];

/** Exactly these: a misspelt `Production` or `prod` would otherwise skip the production checks. */
const NODE_ENVS = ['development', 'test', 'production'];

const StaticUser = Type.Object(
  {
    username: Type.String({ minLength: 3, maxLength: 254 }),
    password: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
    passwordHash: Type.Optional(Type.String({ minLength: 20 })),
    name: Type.String({ default: '' }),
    roles: Type.Array(Type.Integer({ minimum: 1, maximum: 9 }), { default: [] }),
  },
  { additionalProperties: false },
);

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
    http: Type.Object(
      {
        bodyLimitBytes: Type.Integer({ minimum: 1024, maximum: 16 * 1024 * 1024, default: 1024 * 1024 }),
        requestTimeoutMs: Type.Integer({ minimum: 1000, maximum: 600_000, default: 30_000 }),
        connectionTimeoutMs: Type.Integer({ minimum: 1000, maximum: 600_000, default: 60_000 }),
        keepAliveTimeoutMs: Type.Integer({ minimum: 1000, maximum: 600_000, default: 72_000 }),
        shutdownGraceMs: Type.Integer({ minimum: 100, maximum: 120_000, default: 10_000 }),
      },
      { additionalProperties: false, default: {} },
    ),
    auth: Type.Object(
      {
        secret: Type.String({ default: '' }),
        issuer: Type.String({ default: 'shop-rest-api' }),
        accessTtlSeconds: Type.Integer({ minimum: 30, maximum: 86_400, default: 900 }),
        refreshTtlSeconds: Type.Integer({ minimum: 60, maximum: 31_536_000, default: 2_592_000 }),
      },
      { additionalProperties: false, default: {} },
    ),
    staticUsers: Type.Array(StaticUser, { default: [] }),
    settings: Type.Record(Type.String(), Type.Unknown(), { default: {} }),
    rateLimit: Type.Object(
      {
        enabled: Type.Boolean({ default: true }),
        /** Failed logins per account and client address. */
        loginPerAccount: Type.Integer({ minimum: 1, default: 10 }),
        /** Failed logins per account from every address together. */
        loginPerAccountAllIps: Type.Integer({ minimum: 1, default: 100 }),
        /** Failed logins per device token; a device past it counts as unknown again. */
        loginPerDevice: Type.Integer({ minimum: 1, default: 10 }),
        loginPerIp: Type.Integer({ minimum: 1, default: 100 }),
        registerPerIp: Type.Integer({ minimum: 1, default: 20 }),
        refreshPerIp: Type.Integer({ minimum: 1, default: 300 }),
        couponPerIp: Type.Integer({ minimum: 1, default: 60 }),
        /** Place-order requests of guests per client address, and of each customer. */
        placeOrderPerIp: Type.Integer({ minimum: 1, default: 20 }),
        placeOrderPerCustomer: Type.Integer({ minimum: 1, default: 20 }),
        /** New guest carts per client address. */
        cartsPerIp: Type.Integer({ minimum: 1, default: 100 }),
        /** Password-reset requests per address and per client address, each per hour. */
        passwordResetPerEmail: Type.Integer({ minimum: 1, default: 5 }),
        passwordResetPerIp: Type.Integer({ minimum: 1, default: 20 }),
        windowSeconds: Type.Integer({ minimum: 1, default: 900 }),
        /** Prefix of the counters' keys in Redis; lets several deployments (or test runs) share one server. */
        keyPrefix: Type.String({ minLength: 1, maxLength: 100, default: 'shop-rest-api:rl:' }),
      },
      { additionalProperties: false, default: {} },
    ),
    cors: Type.Object(
      { origins: Type.Array(Type.String(), { default: [] }) },
      { additionalProperties: false, default: {} },
    ),
    /** The job queue (pg-boss, in the shop's own database) that delivers webhooks and e-mail. */
    jobs: Type.Object(
      {
        /** Off: events and messages are still written, and delivered once an instance runs the workers. */
        enabled: Type.Boolean({ default: true }),
        /** Delay after the first failed attempt; later delays grow geometrically up to retryMaxMs. */
        retryBaseMs: Type.Integer({ minimum: 1, default: 30_000 }),
        retryMaxMs: Type.Integer({ minimum: 1, default: 43_200_000 }),
        /** Attempts of one delivery before it is dead. */
        maxAttempts: Type.Integer({ minimum: 1, maximum: 100, default: 10 }),
        /** How often the relay looks for events not yet handed to the queue. */
        relayIntervalMs: Type.Integer({ minimum: 10, maximum: 60_000, default: 1000 }),
        /** How often an idle worker asks the queue for work (pg-boss allows 0.5 s at least). */
        pollIntervalSeconds: Type.Number({ minimum: 0.5, maximum: 60, default: 1 }),
      },
      { additionalProperties: false, default: {} },
    ),
    webhooks: Type.Object(
      {
        /** Loopback, private and link-local targets; unset means allowed except with NODE_ENV=production. */
        allowPrivateTargets: Type.Optional(Type.Boolean()),
        timeoutMs: Type.Integer({ minimum: 100, maximum: 60_000, default: 10_000 }),
      },
      { additionalProperties: false, default: {} },
    ),
    /** GET /metrics (Prometheus text): off unless a token or a port is set (docs/operations.md). */
    metrics: Type.Object(
      {
        /** Bearer token GET /metrics asks for on the API's own port. */
        token: Type.Optional(Type.String({ minLength: 32, maxLength: 256 })),
        /** A second listener on this port (same host) that serves only /metrics, without a token. */
        port: Type.Optional(Type.Integer({ minimum: 0, maximum: 65535 })),
      },
      { additionalProperties: false, default: {} },
    ),
    /** OTLP over HTTP: traces go to `<endpoint>/v1/traces` when set (OTEL_EXPORTER_OTLP_ENDPOINT). */
    tracing: Type.Object(
      { endpoint: Type.Optional(Type.String({ pattern: '^https?://' })) },
      { additionalProperties: false, default: {} },
    ),
    /** Card payments through a provider (docs/payments.md). */
    payments: Type.Object(
      {
        /** Who serves payWay "card": unset means `test` outside production and no card in production. */
        cardProvider: Type.Optional(
          Type.Union([Type.Literal('test'), Type.Literal('stripe'), Type.Literal('none')]),
        ),
        /** An unpaid card order is cancelled this long after it was placed. */
        pendingTimeoutMinutes: Type.Integer({ minimum: 1, maximum: 10_080, default: 30 }),
        stripe: Type.Object(
          {
            secretKey: Type.Optional(Type.String({ minLength: 1 })),
            webhookSecret: Type.Optional(Type.String({ minLength: 1 })),
            /** Stripe's API by default; tests point it at a local emulator (protocol, host and port). */
            apiBase: Type.Optional(Type.String({ pattern: '^https?://' })),
          },
          { additionalProperties: false, default: {} },
        ),
      },
      { additionalProperties: false, default: {} },
    ),
    mail: Type.Object(
      {
        /** smtp://user:pass@host:587 or smtps://…; without it messages are kept and logged, not sent. */
        smtpUrl: Type.Optional(Type.String({ pattern: '^smtps?://' })),
        from: Type.String({ default: 'Shop <shop@localhost>' }),
      },
      { additionalProperties: false, default: {} },
    ),
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
