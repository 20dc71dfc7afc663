import { AppError } from '../../http/errors.ts';
import { recordAudit } from '../audit/audit.ts';
import { captureCardPayment } from '../payments/card-moves.ts';
import type { AdminActor } from './order-actor.ts';
import type { OrderJsonType } from './order.schemas.ts';
import { lockedOrder, type OrderDeps, orderAnswer } from './order.service.ts';

/**
 * The back office takes the money a card authorization holds (manual capture) before the first
 * shipment would. The order becomes paid when the provider's event says so, like any card payment.
 */
export async function captureOrderPayment(
  deps: OrderDeps,
  id: number,
  actor: AdminActor,
): Promise<OrderJsonType> {
  return deps.db.transaction(async (tx) => {
    const order = await lockedOrder(tx, id);
    if (order.payWay !== 'card' || order.paymentStatus !== 'authorized') {
      throw new AppError(
        'ILLEGAL_TRANSITION',
        `only an authorized card payment is captured; this order's payment is ${order.paymentStatus}`,
      );
    }
    if (!(await captureCardPayment(tx, deps.config, id))) {
      throw new AppError('ILLEGAL_TRANSITION', 'the card payment holds no authorization');
    }
    await recordAudit(tx, {
      actor: actor.sub,
      action: 'capture',
      entity: 'order',
      entityId: id,
      changes: { payment: { before: 'authorized', after: 'capture requested' } },
    });
    return orderAnswer(tx, order, true);
  });
}
