// What delivers events and messages: the job queue, webhooks and mail (src/config.ts).
import { Type } from '@sinclair/typebox';

export const JobsConfig = Type.Object(
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
);

export const WebhooksConfig = Type.Object(
  {
    /** Loopback, private and link-local targets; unset: as `privateWebhookTargetsAllowed` (src/config.ts) derives. */
    allowPrivateTargets: Type.Optional(Type.Boolean()),
    timeoutMs: Type.Integer({ minimum: 100, maximum: 60_000, default: 10_000 }),
  },
  { additionalProperties: false, default: {} },
);

export const MailConfig = Type.Object(
  {
    /** smtp://user:pass@host:587 or smtps://…; without it messages are kept and logged, not sent. */
    smtpUrl: Type.Optional(Type.String({ pattern: '^smtps?://' })),
    from: Type.String({ default: 'Shop <shop@localhost>' }),
  },
  { additionalProperties: false, default: {} },
);
