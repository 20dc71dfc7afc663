import { type Static, Type } from '@sinclair/typebox';
import { PageQuery, Id } from '../../resources/index.ts';
import { EVENT_TYPES } from '../outbox/outbox.ts';

const EventName = Type.Union([...EVENT_TYPES, '*'].map((e) => Type.Literal(e)));
const Events = Type.Array(EventName, {
  minItems: 1,
  maxItems: EVENT_TYPES.length + 1,
  uniqueItems: true,
  description: 'Event types delivered to this webhook; ["*"] for every event',
});
const Url = Type.String({ minLength: 8, maxLength: 2000, description: 'Target; https:// in production' });
const Description = Type.String({ maxLength: 500 });

export const WebhookCreateBody = Type.Object(
  {
    url: Url,
    events: Events,
    active: Type.Optional(Type.Boolean({ default: true })),
    description: Type.Optional(Description),
  },
  { additionalProperties: false },
);
export type WebhookCreate = Static<typeof WebhookCreateBody>;

export const WebhookUpdateBody = Type.Partial(
  Type.Object({ url: Url, events: Events, active: Type.Boolean(), description: Description }),
  { additionalProperties: false, minProperties: 1 },
);
export type WebhookUpdate = Static<typeof WebhookUpdateBody>;

export const WebhookJson = Type.Object({
  id: Type.Integer(),
  url: Type.String(),
  events: Type.Array(Type.String()),
  active: Type.Boolean(),
  description: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});

/** Create and rotate-secret answers: the only ones that carry the signing secret. */
export const WebhookWithSecretJson = Type.Intersect([
  WebhookJson,
  Type.Object({ secret: Type.String({ description: 'whsec_ + base64 key; shown only now' }) }),
]);

/** Failures read as generic reasons: a network's own message would map the service's surroundings. */
const AttemptError = Type.Union([Type.String(), Type.Null()], {
  description:
    'Why the attempt failed without an answer, in generic words (connection failed, timed out, target refused: private address, https required, webhook inactive); null otherwise',
});

export const DeliveryAttemptJson = Type.Object({
  attempt: Type.Integer({ description: '1 for the first attempt; a manual retry counts on' }),
  succeeded: Type.Boolean(),
  responseCode: Type.Union([Type.Integer(), Type.Null()], {
    description: 'HTTP status, null without an answer',
  }),
  durationMs: Type.Integer(),
  error: AttemptError,
  endedAt: Type.String({ format: 'date-time' }),
});

export const DeliveryJson = Type.Object({
  id: Type.Integer(),
  webhookId: Type.Integer(),
  eventId: Type.Integer({ description: 'Also the webhook-id header, as evt_<eventId>' }),
  eventType: Type.String(),
  status: Type.Union(['pending', 'sending', 'succeeded', 'dead'].map((s) => Type.Literal(s))),
  attempts: Type.Integer(),
  responseCode: Type.Union([Type.Integer(), Type.Null()], {
    description: 'HTTP status of the latest attempt',
  }),
  durationMs: Type.Union([Type.Integer(), Type.Null()]),
  error: AttemptError,
  nextAttemptAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  history: Type.Array(DeliveryAttemptJson, { description: 'Every attempt so far, oldest first' }),
});

export const WebhookParams = Type.Object({ id: Id });
export const DeliveryParams = Type.Object({
  id: Id,
  deliveryId: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
});
export const ListQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });
