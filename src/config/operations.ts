// Running the service: metrics, the answer cache and tracing (src/config.ts).
import { Type } from '@sinclair/typebox';

export const MetricsConfig = Type.Object(
  {
    /** Bearer token GET /metrics asks for on the API's own port. */
    token: Type.Optional(Type.String({ minLength: 32, maxLength: 256 })),
    /** A second listener on this port (same host) that serves only /metrics, without a token. */
    port: Type.Optional(Type.Integer({ minimum: 0, maximum: 65535 })),
  },
  { additionalProperties: false, default: {} },
);

export const CacheConfig = Type.Object(
  {
    enabled: Type.Boolean({ default: true }),
    /** The answers' bytes kept at most; the least recently used go first. */
    maxMegabytes: Type.Integer({ minimum: 1, maximum: 65_536, default: 64 }),
  },
  { additionalProperties: false, default: {} },
);

export const TracingConfig = Type.Object(
  { endpoint: Type.Optional(Type.String({ pattern: '^https?://' })) },
  { additionalProperties: false, default: {} },
);
