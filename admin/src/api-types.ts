// The records the screens show, as the API document types them (packages/client): a screen names
// one of these in `useRecordContext<…>()` instead of reading an untyped record.
import type { paths, Schemas } from '../../packages/client/src/index.ts';

/** The `data` a GET of `Path` answers. */
type DataOf<Path extends keyof paths> = paths[Path]['get'] extends {
  responses: { 200: { content: { 'application/json': { data: infer Data } } } };
}
  ? Data
  : never;

export type Order = Schemas['Order'];
export type Customer = Schemas['Customer'];
export type Webhook = DataOf<'/rest/system/webhook/{id}'>;
export type WebhookDelivery = DataOf<'/rest/system/webhook/{id}/deliveries'>[number];
export type AdminUser = DataOf<'/rest/system/admin-user/{id}'>;
