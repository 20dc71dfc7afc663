import type { Db } from '../../db/client.ts';
import { outbox } from './outbox.tables.ts';

export type EventType =
  | 'customer.registered'
  | 'order.placed'
  | 'order.status_changed'
  | 'product.price_changed';

/** Records an event; pass the transaction of the change it describes so both commit or neither. */
export async function recordEvent(db: Db, type: EventType, payload: Record<string, unknown>): Promise<void> {
  await db.insert(outbox).values({ type, payload });
}
