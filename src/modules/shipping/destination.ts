// What shipping costs to one address (docs/shipping-and-tax.md): a transport without rates keeps its
// own price fields; one with rates is priced by the rate of the most specific zone holding the
// address, or is not offered there.

import { toCents } from '../../lib/money.ts';
import { toGrams } from '../pricing/quantities.ts';
import type { TotalsTransport } from '../pricing/totals.ts';
import type { RateOption } from './rates.repo.ts';
import { type Destination, mostSpecific } from './zones.ts';

/** The transport's own price fields (a transport without rates). */
export type OwnPrice = { kind: 'own' };
/** Priced by a zone's rate. */
export type ZonePrice = { kind: 'rate'; rate: RateOption };
/** The transport has rates, none for this address. */
export type NotServed = { kind: 'unavailable' };

export type ShippingPrice = OwnPrice | ZonePrice | NotServed;

export function priceFor(rates: readonly RateOption[], to: Destination): ShippingPrice {
  if (rates.length === 0) return { kind: 'own' };
  const rate = mostSpecific(rates, to);
  return rate ? { kind: 'rate', rate } : { kind: 'unavailable' };
}

/**
 * A rate as computeTotals takes a transport: the bands in grams and cents. Without bands the rate's
 * price is flat (the per-kg price applies only above the last band).
 */
export function rateAsTransport(rate: RateOption): TotalsTransport {
  return {
    price: rate.price,
    freeShippingThreshold: rate.freeShippingThreshold,
    includedWeightKg: 0,
    overweightPricePerKg: rate.weightBands.length ? rate.overweightPricePerKg : 0,
    codFee: rate.codFee,
    weightBands: rate.weightBands.map((b) => ({
      upToGrams: toGrams(b.upToKg, 'upToKg'),
      price: toCents(b.price),
    })),
  };
}
