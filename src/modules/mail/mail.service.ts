import { eq } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { fromCents } from '../../lib/money.ts';
import type { TotalsFigures } from '../pricing/totals-json.ts';
import type { VatBreakdownEntry } from '../pricing/totals.ts';
import { customers } from '../customers/customer.tables.ts';
import { findOrder, linesOf } from '../orders/order.repo.ts';
import { getSetting } from '../settings/settings.service.ts';
import { mailMessage } from './mail.tables.ts';
import { type MailData, type OrderMailData, renderMail, type TotalFigure } from './templates.ts';

/**
 * Renders a message in the shop's locale and writes it to the mail outbox; pass the transaction
 * of its cause so the message exists exactly when the cause committed. The queue sends it.
 */
export async function writeMail(db: Db, config: Config, to: string, data: MailData): Promise<void> {
  const locale = await getSetting(db, config, 'locale');
  const rendered = renderMail(locale, data);
  await db.insert(mailMessage).values({
    template: data.template,
    locale,
    toAddress: to,
    subject: rendered.subject,
    textBody: rendered.text,
    htmlBody: rendered.html,
  });
}

const money = (cents: number) => fromCents(cents).toFixed(2);

async function orderMailData(db: Db, orderId: number) {
  const order = await findOrder(db, orderId);
  if (!order) return undefined;
  const lines = await linesOf(db, orderId);
  const figures = order.totals as TotalsFigures;
  const totals: { figure: TotalFigure; amount: string }[] = [
    { figure: 'subtotal', amount: money(figures.subtotal) },
  ];
  const shipping = figures.shippingCost + figures.overweightCost;
  if (shipping) totals.push({ figure: 'shipping', amount: money(shipping) });
  if (figures.deliveryCost) totals.push({ figure: 'cashOnDelivery', amount: money(figures.deliveryCost) });
  if (figures.couponDiscount) totals.push({ figure: 'discount', amount: money(-figures.couponDiscount) });
  if (figures.giftPackagingCost)
    totals.push({ figure: 'giftPackaging', amount: money(figures.giftPackagingCost) });
  if (figures.pointsCash) totals.push({ figure: 'points', amount: money(-figures.pointsCash) });
  const data: OrderMailData = {
    number: order.number,
    currency: order.currency,
    lines: lines.map((l) => ({
      name: l.name,
      options: (l.options ?? {}) as Record<string, string>,
      sku: l.sku,
      qty: l.qty,
      unitPrice: money(l.unitPrice),
      lineTotal: money(l.lineTotal),
    })),
    totals,
    vat: (order.vatBreakdown as VatBreakdownEntry[]).map((v) => ({
      rate: v.rate,
      net: money(v.net),
      vat: money(v.vat),
      gross: money(v.gross),
    })),
    total: money(order.total),
  };
  const address = order.address as { firstName?: string } | null;
  return { order, data, firstName: address?.firstName ?? '' };
}

/**
 * The messages an event sends to the customer, written by the relay in the transaction that
 * marks the event handed on: an event is turned into its messages once, and never lost.
 */
export async function writeMailsForEvent(
  db: Db,
  config: Config,
  event: { type: string; payload: unknown },
): Promise<void> {
  const payload = event.payload as Record<string, unknown>;
  if (event.type === 'customer.registered') {
    const [customer] = await db
      .select({ email: customers.email, firstName: customers.firstName })
      .from(customers)
      .where(eq(customers.id, Number(payload.customerId)));
    if (customer)
      await writeMail(db, config, customer.email, { template: 'welcome', firstName: customer.firstName });
    return;
  }
  const orderId = Number(payload.orderId);
  const mailedStatus = event.type === 'order.status_changed' && payload.to === 'shipped';
  if (event.type !== 'order.placed' && event.type !== 'order.cancelled' && !mailedStatus) return;
  const found = await orderMailData(db, orderId);
  if (!found) return;
  const { order, data, firstName } = found;
  if (event.type === 'order.placed') {
    await writeMail(db, config, order.email, { template: 'order_confirmation', firstName, order: data });
  } else if (event.type === 'order.cancelled') {
    await writeMail(db, config, order.email, {
      template: 'order_cancelled',
      firstName,
      number: order.number,
    });
  } else {
    // The shipment's tracking travels in the event (orders' shipOrder); a plain transition has none.
    const tracking =
      typeof payload.trackingNumber === 'string'
        ? {
            carrier: String(payload.carrier ?? ''),
            trackingNumber: payload.trackingNumber,
            trackingUrl: typeof payload.trackingUrl === 'string' ? payload.trackingUrl : null,
          }
        : undefined;
    await writeMail(db, config, order.email, {
      template: 'order_shipped',
      firstName,
      number: order.number,
      tracking,
    });
  }
}
