import { formatPrice, type Locale, type Messages } from '../i18n.ts';

/** Labels from storefront-config's priceTracking in the page's locale; the shop's own words when it has none there. */
export interface PriceLabels {
  reference: string;
  badge: string;
}

export function priceLabels(
  config:
    | { priceTracking: { discountLabel: Record<string, string>; badgeLabel: Record<string, string> } }
    | undefined,
  locale: Locale,
  t: Messages,
): PriceLabels {
  const tracking = config?.priceTracking;
  return {
    reference: tracking?.discountLabel[locale] ?? t.referencePrice,
    badge: tracking?.badgeLabel[locale] ?? t.reducedFrom,
  };
}

/** A reduction in the EU Omnibus sense: the price is below the lowest of the 30 days before it. */
export function isReduced(
  price: number,
  referencePrice: number | null | undefined,
): referencePrice is number {
  return referencePrice != null && referencePrice > price;
}

/**
 * A price as shoppers see it; when reduced, the reference price (the lowest of the 30 days before
 * the reduction) beside it, named as the EU rule asks, and the reduction in percent.
 */
export function Price(props: {
  price: number;
  referencePrice?: number | null;
  locale: Locale;
  labels: PriceLabels;
  /** "from €x" on lists of products whose variants differ in price. */
  from?: boolean;
}) {
  const { price, referencePrice, locale, labels } = props;
  const reduced = isReduced(price, referencePrice);
  return (
    <div class="price-block">
      <p class="price">
        {reduced && (
          <span class="badge">
            {labels.badge} −{Math.round((1 - price / referencePrice) * 100)}%
          </span>
        )}{' '}
        <span class={reduced ? 'now reduced' : 'now'} data-price>
          {formatPrice(price, locale)}
        </span>
      </p>
      {reduced && (
        <p class="reference" data-reference>
          {labels.reference}: <span>{formatPrice(referencePrice, locale)}</span>
        </p>
      )}
    </div>
  );
}
