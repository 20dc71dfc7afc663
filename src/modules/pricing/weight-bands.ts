// Weight bands of a shipping rate (docs/shipping-and-tax.md): the first band that holds the parcel
// gives its price; above the last band, that band's price plus a price per started kilogram.

import { assertCents } from '../../lib/money.ts';
import { toGrams } from './quantities.ts';

/** One band in the quote's units: up to `upToGrams` (inclusive) the parcel costs `price` cents. */
export interface WeightBand {
  upToGrams: number;
  price: number;
}

export interface BandCost {
  /** What the parcel costs, overweight included (cents). */
  cost: number;
  /** The part above the last band (cents), already inside `cost`. */
  overweight: number;
}

/** Started kilograms in `grams` (1 g → 1 kg, 1000 g → 1 kg, 1001 g → 2 kg). */
export function startedKg(grams: number): number {
  return (grams - (grams % 1000)) / 1000 + (grams % 1000 > 0 ? 1 : 0);
}

/**
 * Why bands cannot be used, or null: each band must hold more than the one before (weights strictly
 * ascending) and never cost less (prices ascending), so a heavier parcel never costs less.
 */
export function bandsProblem(bands: readonly { upToKg: number; price: number }[]): string | null {
  for (let i = 1; i < bands.length; i++) {
    if (toGrams(bands[i].upToKg, 'upToKg') <= toGrams(bands[i - 1].upToKg, 'upToKg')) {
      return `weightBands[${i}].upToKg must be above weightBands[${i - 1}].upToKg (bands ascend by weight)`;
    }
    if (bands[i].price < bands[i - 1].price) {
      return `weightBands[${i}].price must not be below weightBands[${i - 1}].price (a heavier parcel never costs less)`;
    }
  }
  return null;
}

/** The price of a parcel of `grams` under ascending, non-empty `bands`. */
export function bandCost(
  bands: readonly WeightBand[],
  grams: number,
  overweightPricePerKg: number,
): BandCost {
  for (const band of bands) {
    if (grams <= band.upToGrams) return { cost: assertCents(band.price, 'band price'), overweight: 0 };
  }
  const last = bands[bands.length - 1];
  const overweight = assertCents(startedKg(grams - last.upToGrams) * overweightPricePerKg, 'overweightCost');
  return { cost: assertCents(last.price + overweight, 'shippingCost'), overweight };
}
