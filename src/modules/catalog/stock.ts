/** Fewer units than this on hand reads as low stock to the storefront (products, variants, cart lines). */
export const LOW_STOCK_BELOW = 5;

export type StockStatus = 'in_stock' | 'low_stock' | 'out_of_stock';

export function stockStatusOf(qty: number): StockStatus {
  return qty <= 0 ? 'out_of_stock' : qty < LOW_STOCK_BELOW ? 'low_stock' : 'in_stock';
}

/**
 * A stock movement per variant, in the one order every writer locks in: product id, then variant
 * id (the stock trigger locks each product after its variants). A line from before variants names
 * only its product, whose one variant has the product's id (drizzle/0017_…), so `variantId ??
 * productId` is the variant.
 */
export function unitsByVariant(
  lines: readonly { productId: number; variantId: number | null; qty: number }[],
): { productId: number; variantId: number; qty: number }[] {
  const units = new Map<number, { productId: number; variantId: number; qty: number }>();
  for (const l of lines) {
    const variantId = l.variantId ?? l.productId;
    const entry = units.get(variantId);
    if (entry) entry.qty += l.qty;
    else units.set(variantId, { productId: l.productId, variantId, qty: l.qty });
  }
  return [...units.values()].sort((a, b) => a.productId - b.productId || a.variantId - b.variantId);
}
