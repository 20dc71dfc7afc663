import { type SQL, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client.ts';

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

/**
 * The one way an event is written: the statement that records an event of `type` whose payload is
 * the jsonb expression `payload`, once per row of the relation `from` when given (a CTE of a larger
 * statement, as place-order's), else once. Triggers record theirs in SQL (src/db/functions).
 */
export function recordEventSql(type: EventType, payload: SQL, from?: SQL): SQL {
  return from === undefined
    ? sql`insert into outbox_event (type, payload) values (${type}, ${payload})`
    : sql`insert into outbox_event (type, payload) select ${type}, ${payload} from ${from}`;
}

/** Records an event; pass the transaction of the change it describes so both commit or neither. */
export async function recordEvent(db: Db, type: EventType, payload: Record<string, unknown>): Promise<void> {
  await queryRows(db, recordEventSql(type, sql`${JSON.stringify(payload)}::jsonb`));
}

/** Records events of one type in one statement (a batch of writes), in the batch's transaction. */
export async function recordEvents(db: Db, type: EventType, payloads: readonly Record<string, unknown>[]): Promise<void> {
  if (payloads.length === 0) return;
  await queryRows(db, recordEventSql(type, sql`e.value`, sql`jsonb_array_elements(${JSON.stringify(payloads)}::jsonb) e`));
}
