// The HTTP server, sign-in and the limits on abuse: parts of the configuration's schema (src/config.ts).
import { Type } from '@sinclair/typebox';

/** A back-office user kept in the configuration (the demo admin, a break-glass account). */
export const StaticUser = Type.Object(
  {
    username: Type.String({ minLength: 3, maxLength: 254 }),
    password: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
    passwordHash: Type.Optional(Type.String({ minLength: 20 })),
    name: Type.String({ default: '' }),
    roles: Type.Array(Type.Integer({ minimum: 1, maximum: 9 }), { default: [] }),
  },
  { additionalProperties: false },
);

export const HttpConfig = Type.Object(
  {
    bodyLimitBytes: Type.Integer({ minimum: 1024, maximum: 16 * 1024 * 1024, default: 1024 * 1024 }),
    requestTimeoutMs: Type.Integer({ minimum: 1000, maximum: 600_000, default: 30_000 }),
    connectionTimeoutMs: Type.Integer({ minimum: 1000, maximum: 600_000, default: 60_000 }),
    keepAliveTimeoutMs: Type.Integer({ minimum: 1000, maximum: 600_000, default: 72_000 }),
    shutdownGraceMs: Type.Integer({ minimum: 100, maximum: 120_000, default: 10_000 }),
  },
  { additionalProperties: false, default: {} },
);

export const AuthConfig = Type.Object(
  {
    secret: Type.String({ default: '' }),
    issuer: Type.String({ default: 'shop-rest-api' }),
    accessTtlSeconds: Type.Integer({ minimum: 30, maximum: 86_400, default: 900 }),
    refreshTtlSeconds: Type.Integer({ minimum: 60, maximum: 31_536_000, default: 2_592_000 }),
  },
  { additionalProperties: false, default: {} },
);

export const RateLimitConfig = Type.Object(
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
);

export const CorsConfig = Type.Object(
  { origins: Type.Array(Type.String(), { default: [] }) },
  { additionalProperties: false, default: {} },
);
