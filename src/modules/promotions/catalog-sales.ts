import { sql } from 'drizzle-orm';
import type { CatalogSale } from '../pricing/catalog-sale.ts';
import { KeptCopy } from '../../resources/index.ts';

// The active catalog sales, kept between requests for the quote (docs/promotions.md,
// "Performance"): its statement reads the versions of promotion and category (catalog_sale is
// rebuilt by their triggers), and the sales are read again only when the copy kept here is of others; which
// run is judged here against the quote's time, and the quote prices its lines with salePrice.

interface SaleRow extends CatalogSale {
  /** Milliseconds since the epoch (null: open). */
  startsAt: number | null;
  endsAt: number | null;
}

interface KeptSale {
  sale: CatalogSale;
  startsAt: number;
  endsAt: number;
}

const catalogSalesJson = sql`(select coalesce(json_agg(json_build_object('productIds', s.product_ids,
    'brands', s.brands, 'categoryIds', s.category_ids, 'percent', s.percent, 'value', s.value,
    'startsAt', extract(epoch from s.starts_at) * 1000, 'endsAt', extract(epoch from s.ends_at) * 1000)
    order by s.promotion_id), '[]') from catalog_sale s)`;

function keep(rows: SaleRow[]): KeptSale[] {
  return rows.map(({ startsAt, endsAt, ...sale }) => ({
    sale,
    startsAt: startsAt ?? -Infinity,
    endsAt: endsAt ?? Infinity,
  }));
}

export const activeCatalogSales = new KeptCopy(
  'catalogSales',
  ['category', 'promotion'],
  catalogSalesJson,
  keep,
);

/** The sales of a kept copy that run at `now`. */
export function salesRunningAt(kept: readonly KeptSale[], now: Date): CatalogSale[] {
  const t = now.getTime();
  return kept.filter((k) => k.startsAt <= t && t < k.endsAt).map((k) => k.sale);
}
