// Destination VAT (docs/shipping-and-tax.md): prices stay as shown (gross), and the VAT inside them is
// that of the buyer's country for the product's tax class. Plain functions over plain data.

export const TAX_CLASSES = ['standard', 'reduced', 'super_reduced', 'zero'] as const;
export type TaxClass = (typeof TAX_CLASSES)[number];

/** A country's VAT percent per tax class (only the classes it defines). */
export type CountryRates = ReadonlyMap<string, number>;

export interface TaxedLine {
  vatRate: number;
  taxClass: string;
}

/**
 * The lines with the destination's rate for their class. A class the country defines no rate for
 * keeps the product's own rate, so a missing row never silently turns into 0 %.
 */
export function withDestinationRates<L extends TaxedLine>(lines: readonly L[], rates: CountryRates): L[] {
  return lines.map((line) => {
    const rate = rates.get(line.taxClass);
    return rate === undefined || rate === line.vatRate ? line : { ...line, vatRate: rate };
  });
}

/**
 * The VAT rate of shipping, delivery and packaging: the destination's rate of the transport's class
 * when it has one; otherwise undefined, so the quote keeps its rule (the highest rate among the lines).
 */
export function shippingRateOf(taxClass: string | null, rates: CountryRates): number | undefined {
  return taxClass === null ? undefined : rates.get(taxClass);
}
