import type { Caller } from '../../http/access.ts';

/** Who moves an order: an admin (back office), the customer who placed it, or nobody in particular. */
export type OrderActor = { kind: 'admin'; sub: string } | { kind: 'customer'; customerId: number };

export function actorOf(caller: Caller): OrderActor {
  if (caller.kind === 'admin') return { kind: 'admin', sub: caller.sub };
  if (caller.kind === 'customer') return { kind: 'customer', customerId: caller.customerId };
  throw new TypeError('a guest does not move orders');
}

/** As stored in the status history (`actor`), told apart by its prefix. */
export function actorLabel(actor: OrderActor): string {
  return actor.kind === 'admin' ? `admin:${actor.sub}` : `customer:${actor.customerId}`;
}

/** As the loyalty ledger and the events name who acted: an admin's subject, else the customer. */
export function actorName(actor: OrderActor): string {
  return actor.kind === 'admin' ? actor.sub : `customer:${actor.customerId}`;
}
