import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { preparedRows } from '../../db/statements.ts';
import { emptyCartSql } from '../cart/cart.repo.ts';
import {
  insertOrderLinesSql,
  insertOrderSql,
  type NewOrder,
  type NewOrderLine,
  orderPlacedPayloadSql,
  type StoredOrder,
  type StoredOrderRow,
  storedOrderOf,
  storedOrderSql,
} from '../orders/placed-order.repo.ts';
import { recordEventSql } from '../outbox/outbox.ts';

/**
 * Writes the order and its lines, empties the cart it came from and records the `order.placed`
 * event in ONE statement (data-modifying CTEs), answering order and lines: a round trip per order
 * less. Each write is its owner's fragment (orders, cart, outbox); only their assembly is here.
 */
export async function insertOrderEmptyCartAndRecordEvent(
  db: Db,
  order: NewOrder,
  lines: readonly NewOrderLine[],
  fromCartId: number,
): Promise<StoredOrder> {
  const [o, l] = [sql.raw('o'), sql.raw('l')];
  const cart = emptyCartSql(fromCartId);
  const [row] = await preparedRows<StoredOrderRow>(
    db,
    'order_insert',
    sql`with ${o} as (${insertOrderSql(order)}),
      ${l} as (${insertOrderLinesSql(o, lines)}),
      emptied as (${cart.deleteLines}),
      uncouponed as (${cart.clearCoupon}),
      placed as (${recordEventSql('order.placed', orderPlacedPayloadSql(o), o)})
    ${storedOrderSql(o, l)}`,
  );
  return storedOrderOf(row);
}
