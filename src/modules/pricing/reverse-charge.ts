// The B2B reverse charge (docs/shipping-and-tax.md): a business buyer in another EU country pays the
// net amount, and the VAT is accounted for by the buyer. The quote is computed as for anyone else,
// then the VAT of each rate is taken off, so the charged total is Σ net to the cent.

import { sumCents } from '../../lib/money.ts';
import type { VatBreakdownEntry } from './vat.ts';

export interface ReverseCharged {
  /** The VAT not charged (cents): the sum of the breakdown's VAT. */
  reverseChargeVat: number;
  /** One entry at rate 0 holding the net of every rate, marked `reverseCharge`. */
  vatBreakdown: VatBreakdownEntry[];
}

export function reverseCharge(breakdown: readonly VatBreakdownEntry[]): ReverseCharged {
  const net = sumCents(
    breakdown.map((e) => e.net),
    'net',
  );
  const vat = sumCents(
    breakdown.map((e) => e.vat),
    'vat',
  );
  const vatBreakdown: VatBreakdownEntry[] =
    net === 0 ? [] : [{ rate: 0, net, vat: 0, gross: net, reverseCharge: true }];
  return { reverseChargeVat: vat, vatBreakdown };
}
