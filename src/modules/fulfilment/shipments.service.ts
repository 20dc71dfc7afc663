import { AppError } from '../../http/errors.ts';
import { captureCardPayment } from '../payments/card-moves.ts';
import { insertShipment } from '../orders/after-order.repo.ts';
import type { OrderActor } from '../orders/order-actor.ts';
import { lockedOrder, moveOrder, type OrderDeps, orderAnswer } from '../orders/order.service.ts';
import type { OrderJsonType, ShipmentBodyType } from '../orders/order.schemas.ts';

/**
 * Ships a confirmed order: the shipment is kept with its tracking, the order moves to `shipped`,
 * and order.status_changed carries the tracking, so the customer's e-mail (mail module) and
 * webhooks get it from the one event.
 */
export async function shipOrder(
  deps: OrderDeps,
  id: number,
  body: ShipmentBodyType,
  actor: OrderActor,
): Promise<OrderJsonType> {
  return deps.db.transaction(async (tx) => {
    const order = await lockedOrder(tx, id);
    if (order.status !== 'confirmed') {
      throw new AppError(
        'ILLEGAL_TRANSITION',
        `only a confirmed order is shipped; this one is ${order.status}`,
      );
    }
    const tracking = {
      carrier: body.carrier,
      trackingNumber: body.trackingNumber,
      trackingUrl: body.trackingUrl ?? null,
    };
    await insertShipment(tx, { orderId: id, ...tracking, actor: actor.kind === 'admin' ? actor.sub : '' });
    // Manual capture: the money held at the order is taken when the goods leave.
    if (order.payWay === 'card' && order.paymentStatus === 'authorized') {
      await captureCardPayment(tx, deps.config, id);
    }
    const moved = await moveOrder(tx, deps.config, order, { to: 'shipped', actor, details: tracking });
    return orderAnswer(tx, moved, true);
  });
}
