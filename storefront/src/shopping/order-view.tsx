import { formatPrice } from '../i18n.ts';
import type { PageContext } from '../types.ts';
import type { Order } from './orders.ts';
import { TotalsView } from './totals-view.tsx';

/** An order as its buyer reads it: status, lines, the order's own figures, address, shipments, returns. */
export function OrderView(props: { ctx: PageContext; order: Order }) {
  const { ctx, order } = props;
  const { t } = ctx;
  const money = (amount: number) => formatPrice(amount, ctx.locale);
  const date = new Intl.DateTimeFormat(ctx.locale === 'el' ? 'el-GR' : 'en-IE', { dateStyle: 'long' });
  return (
    <div class="order" data-order={order.number}>
      <dl class="order-facts">
        <dt>{t.placedOn}</dt>
        <dd>{date.format(new Date(order.createdAt))}</dd>
        <dt>{t.orderStatus}</dt>
        <dd data-status={order.status}>{t.statuses[order.status] ?? order.status}</dd>
        <dt>{t.paymentStatus}</dt>
        <dd data-payment-status={order.paymentStatus}>
          {t.paymentStatuses[order.paymentStatus] ?? order.paymentStatus}
        </dd>
      </dl>
      <table class="order-lines">
        <thead>
          <tr>
            <th scope="col">{t.product}</th>
            <th scope="col">{t.quantity}</th>
            <th scope="col">{t.lineTotal}</th>
          </tr>
        </thead>
        <tbody>
          {order.lines.map((line) => (
            <tr>
              <td>
                {line.name}
                {Object.entries(line.options).map(([name, value]) => (
                  <span class="option">
                    {name}: {value}
                  </span>
                ))}
                {line.giftId !== null && <span class="option">{t.freeGifts}</span>}
              </td>
              <td>{line.qty}</td>
              <td>{money(line.lineTotal)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <TotalsView ctx={ctx} totals={order.totals} showShipping={order.transport !== null} />
      <h2>{t.address}</h2>
      <address>
        {order.address.firstName} {order.address.lastName}
        <br />
        {order.address.street}
        <br />
        {[order.address.postalCode, order.address.city].filter(Boolean).join(' ')}{' '}
        {order.address.countryAlpha2}
        <br />
        {order.address.phone} · {order.address.email}
      </address>
      {order.shipments.length > 0 && (
        <>
          <h2>{t.shipments}</h2>
          <ul>
            {order.shipments.map((shipment) => (
              <li>
                {date.format(new Date(shipment.at))}: {shipment.carrier} {shipment.trackingNumber}{' '}
                {shipment.trackingUrl && <a href={shipment.trackingUrl}>{t.tracking}</a>}
              </li>
            ))}
          </ul>
        </>
      )}
      {order.returns.length > 0 && (
        <>
          <h2>{t.returns}</h2>
          <ul>
            {order.returns.map((entry) => (
              <li>
                {date.format(new Date(entry.at))}: {money(entry.amount)}
                {entry.reason ? ` (${entry.reason})` : ''}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
