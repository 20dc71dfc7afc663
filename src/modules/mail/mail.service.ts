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

/** A field of a JSON column or payload (stored as JSON, read without a type). */
const fieldOf = (json: unknown, key: string): unknown =>
  typeof json === 'object' && json !== null ? Reflect.get(json, key) : undefined;
/** A number of a JSON column (an amount in cents, a VAT rate); 0 when it has none. */
const numberOf = (json: unknown, key: string): number => {
  const value = fieldOf(json, key);
  return typeof value === 'number' ? value : 0;
};

/** The order's totals (figuresOf's JSON) as the lines of the message. */
function totalLines(totals: unknown): { figure: TotalFigure; amount: string }[] {
  const figure = (key: keyof TotalsFigures) => numberOf(totals, key);
  const lines: { figure: TotalFigure; amount: string }[] = [
    { figure: 'subtotal', amount: money(figure('subtotal')) },
  ];
  const shipping = figure('shippingCost') + figure('overweightCost');
  if (shipping) lines.push({ figure: 'shipping', amount: money(shipping) });
  if (figure('deliveryCost')) lines.push({ figure: 'cashOnDelivery', amount: money(figure('deliveryCost')) });
  if (figure('couponDiscount')) lines.push({ figure: 'discount', amount: money(-figure('couponDiscount')) });
  if (figure('giftPackagingCost'))
    lines.push({ figure: 'giftPackaging', amount: money(figure('giftPackagingCost')) });
  if (figure('pointsCash')) lines.push({ figure: 'points', amount: money(-figure('pointsCash')) });
  return lines;
}

async function orderMailData(db: Db, orderId: number) {
  const order = await findOrder(db, orderId);
  if (!order) return undefined;
  const lines = await linesOf(db, orderId);
  const vatRates: unknown[] = Array.isArray(order.vatBreakdown) ? order.vatBreakdown : [];
  const data: OrderMailData = {
    number: order.number,
    currency: order.currency,
    lines: lines.map((l) => ({
      name: l.name,
      options: l.options,
      sku: l.sku,
      qty: l.qty,
      unitPrice: money(l.unitPrice),
      lineTotal: money(l.lineTotal),
    })),
    totals: totalLines(order.totals),
    vat: vatRates.map((entry) => {
      const figure = (key: keyof VatBreakdownEntry) => numberOf(entry, key);
      return {
        rate: figure('rate'),
        net: money(figure('net')),
        vat: money(figure('vat')),
        gross: money(figure('gross')),
      };
    }),
    total: money(order.total),
  };
  const firstName = fieldOf(order.address, 'firstName');
  return { order, data, firstName: typeof firstName === 'string' ? firstName : '' };
}

type EventPayload = Record<
  'customerId' | 'orderId' | 'to' | 'carrier' | 'trackingNumber' | 'trackingUrl',
  unknown
>;

async function welcomeMail(db: Db, config: Config, customerId: number): Promise<void> {
  const [customer] = await db
    .select({ email: customers.email, firstName: customers.firstName })
    .from(customers)
    .where(eq(customers.id, customerId));
  if (customer)
    await writeMail(db, config, customer.email, { template: 'welcome', firstName: customer.firstName });
}

/** The shipment's tracking travels in the event (orders' shipOrder); a plain transition has none. */
function trackingOf(payload: EventPayload) {
  if (typeof payload.trackingNumber !== 'string') return undefined;
  return {
    carrier: String(payload.carrier ?? ''),
    trackingNumber: payload.trackingNumber,
    trackingUrl: typeof payload.trackingUrl === 'string' ? payload.trackingUrl : null,
  };
}

/** The mail an order event sends, if any: confirmation, payment received, cancellation, shipment. */
async function orderMail(db: Db, config: Config, type: string, payload: EventPayload): Promise<void> {
  const shipped = type === 'order.status_changed' && payload.to === 'shipped';
  if (!['order.placed', 'order.cancelled', 'order.paid'].includes(type) && !shipped) return;
  const found = await orderMailData(db, Number(payload.orderId));
  if (!found) return;
  const { order, data, firstName } = found;
  const { number, email } = order;
  if (type === 'order.placed') {
    await writeMail(db, config, email, { template: 'order_confirmation', firstName, order: data });
  } else if (type === 'order.paid') {
    const amount = money(order.paidAmount);
    await writeMail(db, config, email, {
      template: 'payment_received',
      firstName,
      number,
      amount,
      currency: order.currency,
    });
  } else if (type === 'order.cancelled') {
    await writeMail(db, config, email, { template: 'order_cancelled', firstName, number });
  } else {
    await writeMail(db, config, email, {
      template: 'order_shipped',
      firstName,
      number,
      tracking: trackingOf(payload),
    });
  }
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
  const payload: EventPayload = {
    customerId: fieldOf(event.payload, 'customerId'),
    orderId: fieldOf(event.payload, 'orderId'),
    to: fieldOf(event.payload, 'to'),
    carrier: fieldOf(event.payload, 'carrier'),
    trackingNumber: fieldOf(event.payload, 'trackingNumber'),
    trackingUrl: fieldOf(event.payload, 'trackingUrl'),
  };
  if (event.type === 'customer.registered') await welcomeMail(db, config, Number(payload.customerId));
  else await orderMail(db, config, event.type, payload);
}
