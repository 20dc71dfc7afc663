import { inArray } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { fromCents } from '../../lib/money.ts';
import type { TotalsFigures } from '../pricing/totals-json.ts';
import type { VatBreakdownEntry } from '../pricing/totals.ts';
import { customers } from '../customers/customer.tables.ts';
import { findOrders, linesOfOrders } from '../orders/order.repo.ts';
import type { SalesOrderLineRow, SalesOrderRow } from '../orders/order.tables.ts';
import { getSetting } from '../settings/settings.service.ts';
import { mailMessage } from './mail.tables.ts';
import { isMailLocale, type Locale, type MailData, type OrderMailData, renderMail, type TotalFigure } from './templates.ts';

/**
 * Renders a message in the recipient's locale (a customer's, an order's) when the templates speak
 * it, else in the shop's (setting `locale`), and writes it to the mail outbox; pass the transaction
 * of its cause so the message exists exactly when the cause committed. The queue sends it.
 */
export async function writeMail(
  db: Db,
  config: Config,
  to: string,
  data: MailData,
  recipientLocale: string | null = null,
): Promise<void> {
  const locale = await localeChooser(db, config)(recipientLocale);
  await db.insert(mailMessage).values(messageRow(locale, to, data));
}

/**
 * The locale of a message: the recipient's (a customer's, an order's) when the templates speak
 * it, else the shop's (setting `locale`, read once, and only when a recipient needs it).
 */
function localeChooser(db: Db, config: Config): (recipient: string | null) => Promise<Locale> {
  let shopLocale: Promise<Locale> | undefined;
  return async (recipient) => {
    if (isMailLocale(recipient)) return recipient;
    shopLocale ??= getSetting(db, config, 'locale');
    return shopLocale;
  };
}

function messageRow(locale: Locale, to: string, data: MailData): typeof mailMessage.$inferInsert {
  const rendered = renderMail(locale, data);
  return {
    template: data.template,
    locale,
    toAddress: to,
    subject: rendered.subject,
    textBody: rendered.text,
    htmlBody: rendered.html,
  };
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
  if (figure('reverseChargeVat'))
    lines.push({ figure: 'reverseChargeVat', amount: money(-figure('reverseChargeVat')) });
  return lines;
}

function orderMailData(order: SalesOrderRow, lines: readonly SalesOrderLineRow[]) {
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
    vatId: order.vatId,
    reverseCharge: vatRates.some((entry) => fieldOf(entry, 'reverseCharge') === true),
  };
  const firstName = fieldOf(order.address, 'firstName');
  return { data, firstName: typeof firstName === 'string' ? firstName : '' };
}

type EventPayload = Record<
  'customerId' | 'orderId' | 'to' | 'carrier' | 'trackingNumber' | 'trackingUrl',
  unknown
>;

/** The shipment's tracking travels in the event (orders' shipOrder); a plain transition has none. */
function trackingOf(payload: EventPayload) {
  if (typeof payload.trackingNumber !== 'string') return undefined;
  return {
    carrier: String(payload.carrier ?? ''),
    trackingNumber: payload.trackingNumber,
    trackingUrl: typeof payload.trackingUrl === 'string' ? payload.trackingUrl : null,
  };
}

const ORDER_MAIL_EVENTS = ['order.placed', 'order.cancelled', 'order.paid'];

/** The mail an order event sends, if any: confirmation, payment received, cancellation, shipment. */
function orderMail(
  type: string,
  payload: EventPayload,
  order: SalesOrderRow,
  lines: readonly SalesOrderLineRow[],
): MailData {
  const { data, firstName } = orderMailData(order, lines);
  const { number } = order;
  if (type === 'order.placed') return { template: 'order_confirmation', firstName, order: data };
  if (type === 'order.paid') {
    const amount = money(order.paidAmount);
    return { template: 'payment_received', firstName, number, amount, currency: order.currency };
  }
  if (type === 'order.cancelled') return { template: 'order_cancelled', firstName, number };
  return { template: 'order_shipped', firstName, number, tracking: trackingOf(payload) };
}

function payloadOf(event: { payload: unknown }): EventPayload {
  return {
    customerId: fieldOf(event.payload, 'customerId'),
    orderId: fieldOf(event.payload, 'orderId'),
    to: fieldOf(event.payload, 'to'),
    carrier: fieldOf(event.payload, 'carrier'),
    trackingNumber: fieldOf(event.payload, 'trackingNumber'),
    trackingUrl: fieldOf(event.payload, 'trackingUrl'),
  };
}

/** Whether an event sends a customer a message: a registration, or an order event that mails. */
function mailsCustomer(type: string, payload: EventPayload): 'welcome' | 'order' | undefined {
  if (type === 'customer.registered') return 'welcome';
  const shipped = type === 'order.status_changed' && payload.to === 'shipped';
  return ORDER_MAIL_EVENTS.includes(type) || shipped ? 'order' : undefined;
}

/**
 * The messages events send to customers, written by the relay in the transaction that marks the
 * events handed on: an event is turned into its messages once, and never lost. A batch of events
 * is read and written with a few statements whatever its size.
 */
export async function writeMailsForEvents(
  db: Db,
  config: Config,
  events: readonly { type: string; payload: unknown }[],
): Promise<void> {
  const wanted = events.flatMap((event) => {
    const payload = payloadOf(event);
    const kind = mailsCustomer(event.type, payload);
    return kind ? [{ type: event.type, kind, payload }] : [];
  });
  if (wanted.length === 0) return;
  const idsOf = (kind: string, key: 'orderId' | 'customerId') =>
    wanted.filter((w) => w.kind === kind).map((w) => Number(w.payload[key]));
  const orderIds = idsOf('order', 'orderId');
  const confirmed = wanted.filter((w) => w.type === 'order.placed').map((w) => Number(w.payload.orderId));
  const orders = new Map((await findOrders(db, orderIds)).map((o) => [o.id, o]));
  const lines = new Map<number, SalesOrderLineRow[]>();
  for (const line of await linesOfOrders(db, confirmed)) {
    const ofOrder = lines.get(line.orderId);
    if (ofOrder) ofOrder.push(line);
    else lines.set(line.orderId, [line]);
  }
  const customerIds = idsOf('welcome', 'customerId');
  const registered =
    customerIds.length === 0
      ? []
      : await db
          .select({
            id: customers.id,
            email: customers.email,
            firstName: customers.firstName,
            locale: customers.locale,
          })
          .from(customers)
          .where(inArray(customers.id, customerIds));
  const welcomed = new Map(registered.map((c) => [c.id, c]));
  const localeOf = localeChooser(db, config);
  const rows: (typeof mailMessage.$inferInsert)[] = [];
  for (const w of wanted) {
    if (w.kind === 'welcome') {
      const customer = welcomed.get(Number(w.payload.customerId));
      if (!customer) continue;
      const welcome = { template: 'welcome', firstName: customer.firstName } as const;
      rows.push(messageRow(await localeOf(customer.locale), customer.email, welcome));
      continue;
    }
    const order = orders.get(Number(w.payload.orderId));
    if (!order) continue;
    const data = orderMail(w.type, w.payload, order, lines.get(order.id) ?? []);
    rows.push(messageRow(await localeOf(order.locale), order.email, data));
  }
  if (rows.length > 0) await db.insert(mailMessage).values(rows);
}
