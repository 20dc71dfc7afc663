import type { Schemas } from '@shop/client';
import type { ComponentChildren } from 'preact';
import { formatPrice } from '../i18n.ts';
import type { PageContext } from '../types.ts';

export type Totals = Schemas['Totals'];

/**
 * The figures of a quote exactly as POST /rest/v1/checkout/totals answered them: each row is one
 * field of the answer, nothing is added up here. Rows that are zero are left out, except the
 * subtotal and the total.
 */
export function TotalsView(props: { ctx: PageContext; totals: Totals; showShipping: boolean }) {
  const { ctx, totals } = props;
  const { t } = ctx;
  const money = (amount: number) => formatPrice(amount, ctx.locale);
  const minus = (amount: number) => `−${money(amount)}`;
  return (
    <dl class="totals" data-totals>
      <dt>
        {t.subtotal} ({t.items(totals.itemCount)})
      </dt>
      <dd data-figure="subtotal">{money(totals.subtotal)}</dd>
      {totals.promotions.map((promotion) => (
        <>
          <dt>{promotion.name || t.promotion}</dt>
          <dd>{minus(promotion.amount)}</dd>
        </>
      ))}
      {totals.giftDiscount > 0 && (
        <>
          <dt>{t.giftDiscount}</dt>
          <dd>{minus(totals.giftDiscount)}</dd>
        </>
      )}
      {totals.couponDiscount > 0 && (
        <>
          <dt>{t.couponDiscount}</dt>
          <dd data-figure="couponDiscount">{minus(totals.couponDiscount)}</dd>
        </>
      )}
      {props.showShipping && (
        <>
          <dt>{t.shipping}</dt>
          <dd data-figure="shippingCost">{totals.shippingCost > 0 ? money(totals.shippingCost) : t.free}</dd>
        </>
      )}
      {totals.deliveryCost > 0 && (
        <>
          <dt>{t.codFee}</dt>
          <dd data-figure="deliveryCost">{money(totals.deliveryCost)}</dd>
        </>
      )}
      {totals.giftPackagingCost > 0 && (
        <>
          <dt>{t.giftPackaging}</dt>
          <dd>{money(totals.giftPackagingCost)}</dd>
        </>
      )}
      {totals.pointsCash > 0 && (
        <>
          <dt>{t.pointsCash(totals.pointsSpend)}</dt>
          <dd data-figure="pointsCash">{minus(totals.pointsCash)}</dd>
        </>
      )}
      <dt class="grand">{t.total}</dt>
      <dd class="grand" data-figure="total">
        {money(totals.total)}
      </dd>
    </dl>
  );
}

/** A message above a form: what the API refused, in the shopper's words (role=alert for readers). */
export function Notice(props: { kind: 'error' | 'info'; children: ComponentChildren }) {
  return (
    <div class={`notice ${props.kind}`} role={props.kind === 'error' ? 'alert' : 'status'}>
      {props.children}
    </div>
  );
}
