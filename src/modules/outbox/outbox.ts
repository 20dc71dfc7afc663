import type { Db } from '../../db/client.ts';
import { outbox } from './outbox.tables.ts';

/** Every event type a webhook can subscribe to (docs/events.md describes their payloads). */
export const EVENT_TYPES = [
  'customer.registered',
  'order.placed',
  'order.status_changed',
  'order.cancelled',
  'order.paid',
  'product.price_changed',
  'product.stock_low',
  'product.out_of_stock',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** Records an event; pass the transaction of the change it describes so both commit or neither. */
export async function recordEvent(db: Db, type: EventType, payload: Record<string, unknown>): Promise<void> {
  await db.insert(outbox).values({ type, payload });
}
