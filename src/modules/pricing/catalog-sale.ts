// The price a running catalog promotion gives a product (docs/promotions.md): the lowest of the
// prices the sales covering it give, each sale a percent off (rounded half up to the cent) or an
// amount off (never below 0). The same rule as the SQL function sale_price
// (src/db/functions/sale_price.sql), which lists and pages apply inside their statements; the quote
// applies this one to its lines from the sales it keeps (test/unit/catalog-sale.test.ts holds the two
// equal). No SQL, no HTTP.

import { percentOf, toCents } from '../../lib/money.ts';

/** A catalog sale as a price reads it: its conditions (null: any) with its categories' subtrees. */
export interface CatalogSale {
  productIds: readonly number[] | null;
  brands: readonly string[] | null;
  /** The categories it names and every one below them. */
  categoryIds: readonly number[] | null;
  percent: boolean;
  /** The percent, or the amount off in the shop's currency (a decimal). */
  value: number;
}

/** What a sale's conditions read of a product. */
export interface SaleProduct {
  productId: number;
  categoryId: number | null;
  brand: string | null;
}

function covers(sale: CatalogSale, p: SaleProduct): boolean {
  if (sale.productIds !== null && !sale.productIds.includes(p.productId)) return false;
  if (sale.brands !== null && (p.brand === null || !sale.brands.includes(p.brand))) return false;
  if (sale.categoryIds !== null && (p.categoryId === null || !sale.categoryIds.includes(p.categoryId)))
    return false;
  return true;
}

/** `price` (cents) under the running `sales`: the lowest any covering sale gives, else the price. */
export function salePrice(price: number, product: SaleProduct, sales: readonly CatalogSale[]): number {
  let best = price;
  for (const sale of sales) {
    if (!covers(sale, product)) continue;
    const reduced = sale.percent
      ? price - percentOf(price, sale.value)
      : Math.max(0, price - toCents(sale.value));
    if (reduced < best) best = reduced;
  }
  return best;
}
