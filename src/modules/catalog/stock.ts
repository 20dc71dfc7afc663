/** Fewer units than this on hand reads as low stock to the storefront (products, variants, cart lines). */
export const LOW_STOCK_BELOW = 5;

export type StockStatus = 'in_stock' | 'low_stock' | 'out_of_stock';

export function stockStatusOf(qty: number): StockStatus {
  return qty <= 0 ? 'out_of_stock' : qty < LOW_STOCK_BELOW ? 'low_stock' : 'in_stock';
}
