import type { Caller } from '../../http/access.ts';
import { AppError } from '../../http/errors.ts';

/** Who moves an order: an admin (back office), the customer who placed it, or the shop's own jobs. */
export type AdminActor = { kind: 'admin'; sub: string };
export type OrderActor =
  | AdminActor
  | { kind: 'customer'; customerId: number }
  /** A job of the shop's (an unpaid card order cancelled after its time): `system:<name>`. */
  | { kind: 'system'; name: string };

export function actorOf(caller: Caller): OrderActor {
  if (caller.kind === 'admin') return { kind: 'admin', sub: caller.sub };
  if (caller.kind === 'customer') return { kind: 'customer', customerId: caller.customerId };
  throw new TypeError('a guest does not move orders');
}

/** The admin behind a back-office-only order operation. */
export function adminActorOf(caller: Caller): AdminActor {
  if (caller.kind !== 'admin') throw new AppError('FORBIDDEN', 'this operation needs an admin token');
  return { kind: 'admin', sub: caller.sub };
}

/** As stored in the status history (`actor`), told apart by its prefix. */
export function actorLabel(actor: OrderActor): string {
  if (actor.kind === 'system') return `system:${actor.name}`;
  return actor.kind === 'admin' ? `admin:${actor.sub}` : `customer:${actor.customerId}`;
}

/** As the loyalty ledger and the events name who acted: an admin's subject, else the customer. */
export function actorName(actor: OrderActor): string {
  if (actor.kind === 'system') return `system:${actor.name}`;
  return actor.kind === 'admin' ? actor.sub : `customer:${actor.customerId}`;
}
