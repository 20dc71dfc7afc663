import { and, eq, isNull, sql } from 'drizzle-orm';
import { AppError } from '../../http/errors.ts';
import { type OrderDeps, orderAnswer } from './order.service.ts';
import type { OrderJsonType } from './order.schemas.ts';
import { salesOrders } from './order.tables.ts';

/**
 * A guest finds an order again by its number and the e-mail it was placed with (any case). A wrong
 * pair is a 404 that says nothing about which half was wrong; the route counts it like a failed
 * login. The answer is the storefront shape of a customer's own order. Only guest orders are found:
 * an account's order answers 404 like an unknown one (its owner logs in to read it), so a number
 * and an e-mail address never open an account's order, address and phone included.
 */
export async function lookupOrder(deps: OrderDeps, number: string, email: string): Promise<OrderJsonType> {
  const [row] = await deps.db
    .select()
    .from(salesOrders)
    .where(
      and(
        eq(salesOrders.number, number.trim().toUpperCase()),
        isNull(salesOrders.customerId),
        sql`lower(${salesOrders.email}) = lower(${email.trim()})`,
      ),
    )
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND', 'no order has this number and e-mail address');
  return orderAnswer(deps.db, row, false);
}
