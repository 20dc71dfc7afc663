import { sql } from 'drizzle-orm';
import type { CatalogSale } from '../pricing/catalog-sale.ts';
import { KeptCopy } from '../../resources/index.ts';
import { type Windowed, windowed, windowJson } from './windows.ts';

// The active catalog sales, kept between requests for the quote (docs/promotions.md,
// "Performance"): its statement reads the versions of promotion and category (catalog_sale is
// rebuilt by their triggers), and the sales are read again only when the copy kept here is of
// others; which run is judged by the quote against its own time (windows.ts), and the quote prices
// its lines with salePrice.

interface SaleRow extends CatalogSale {
  /** Milliseconds since the epoch (null: open). */
  startsAt: number | null;
  endsAt: number | null;
}

const catalogSalesJson = sql`(select coalesce(json_agg(json_build_object('productIds', s.product_ids,
    'brands', s.brands, 'categoryIds', s.category_ids, 'percent', s.percent, 'value', s.value,
    ${windowJson(sql`s.starts_at`, sql`s.ends_at`)}) order by s.promotion_id), '[]') from catalog_sale s)`;

function keep(rows: SaleRow[]): Windowed<CatalogSale>[] {
  return rows.map(({ startsAt, endsAt, ...sale }) => windowed(sale, startsAt, endsAt));
}

export const activeCatalogSales = new KeptCopy(
  'catalogSales',
  ['category', 'promotion'],
  catalogSalesJson,
  keep,
);
