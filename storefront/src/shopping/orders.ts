// Reading an order as the shopper may: a customer reads their own (GET /rest/order/order), a guest
// reads the one they just placed or looked up through the public lookup, with the e-mail address
// kept in the last-order cookie (GET /rest/order/lookup).
import type { Schemas } from '@shop/client';
import type { PageContext } from '../types.ts';
import { lastOrderEmail } from './session.ts';

export type Order = Schemas['Order'];

export async function findOrder(ctx: PageContext, number: string): Promise<Order | undefined> {
  if (ctx.api.session.accessToken || ctx.api.session.refreshToken) {
    const own = await ctx.api.api.GET('/rest/order/order', { params: { query: { number, limit: 1 } } });
    const order = own.data?.data[0];
    if (order) return order;
  }
  const email = lastOrderEmail(ctx, number);
  if (!email) return undefined;
  const answer = await ctx.api.api.GET('/rest/order/lookup', { params: { query: { number, email } } });
  return answer.data?.data;
}

/** A card order still waiting for the shopper to pay (no attempt succeeded yet). */
export function awaitsCard(order: Order): boolean {
  return (
    order.payWay === 'card' &&
    order.paymentStatus === 'pending' &&
    order.status === 'pending' &&
    (order.payment?.status === 'requires_payment_method' || order.payment?.status === 'failed')
  );
}
