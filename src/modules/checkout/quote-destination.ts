// The address in the quote (docs/shipping-and-tax.md): which rate prices the shipping, which
// country's VAT is inside the prices, and whether a business buyer pays the net amount. One step of
// quoteCart, run alike for the totals endpoint and place-order.

import type { Config } from '../../config.ts';
import { AppError } from '../../http/errors.ts';
import { type CountryRates, shippingRateOf } from '../pricing/destination-vat.ts';
import type { TotalsTransport } from '../pricing/totals.ts';
import type { TotalsBodyType, TotalsJson } from '../pricing/totals.schemas.ts';
import type { EffectiveSettings } from '../settings/registry.ts';
import { priceFor, rateAsTransport } from '../shipping/destination.ts';
import type { CountryTaxRate, RateOption } from '../shipping/rates.repo.ts';
import type { OrderShippingRate } from '../orders/order.tables.ts';
import type { Destination } from '../shipping/zones.ts';
import type { TransportRow } from './checkout.repo.ts';
import { transportInput } from './quote-inputs.ts';
import { EU_COUNTRIES, parseVatId, type VatId } from './vat-id.ts';
import { vatIdRegistryOf } from './vat-registry.ts';

/** What the quote's one read brings for the address: the transport's rates, the country's VAT rates. */
export interface DestinationReads {
  rates: RateOption[];
  taxRates: CountryTaxRate[];
}

export interface PricedDestination {
  transport: TotalsTransport | null;
  /** The zone and rate that priced the shipping (null: the transport's own price, or none). */
  shipping: OrderShippingRate | null;
  /** The destination's VAT per tax class; empty under origin VAT. */
  countryRates: CountryRates;
  shippingVatRate: number | undefined;
  vatId: VatId | null;
  reverseCharge: boolean;
  /** Why a VAT id given did not earn the reverse charge. */
  vatIdError: string | null;
}

/** The address of the body; before the buyer gives one, the shop's own country. */
export function destinationOf(body: TotalsBodyType, settings: EffectiveSettings): Destination {
  return {
    country: (body.countryAlpha2 ?? settings.shop_country).toUpperCase(),
    region: body.countyAlpha ?? null,
    postalCode: body.postalCode ?? null,
  };
}

function shippingOf(transport: TransportRow | null, rates: RateOption[], to: Destination) {
  if (transport === null) return { transport: null, shipping: null };
  const price = priceFor(rates, to);
  if (price.kind === 'own') return { transport: transportInput(transport), shipping: null };
  if (price.kind === 'unavailable') {
    throw new AppError('SHIPPING_UNAVAILABLE', `${transport.name} does not deliver to this address`, [
      {
        field: 'postalCode',
        message: `no shipping zone of ${transport.name} holds ${to.country} ${to.postalCode ?? ''}`.trim(),
      },
    ]);
  }
  const { rate } = price;
  return {
    transport: rateAsTransport(rate),
    shipping: { zoneId: rate.zone.id, zoneName: rate.zone.name, rateId: rate.rateId },
  };
}

/** The VAT id of the body, or null; a malformed one is a 400 whatever the shop's settings. */
export function vatIdOf(body: TotalsBodyType): VatId | null {
  if (body.vatId === undefined) return null;
  const id = parseVatId(body.vatId);
  if (typeof id !== 'string') return id;
  throw new AppError('VALIDATION_FAILED', `vatId ${id}`, [{ field: 'vatId', message: id }]);
}

/**
 * Why this VAT id does not earn the reverse charge, or null when it does: the switch is on, the id
 * and the delivery are of one EU country other than the shop's, and the registry confirms the id.
 * A registry that says no, gives no answer or fails never grants 0 %.
 */
async function reverseChargeProblem(
  config: Config,
  settings: EffectiveSettings,
  id: VatId,
  to: Destination,
): Promise<string | null> {
  if (!settings.b2b_reverse_charge) return 'REVERSE_CHARGE_OFF';
  if (id.country === settings.shop_country || !EU_COUNTRIES.has(id.country)) return 'VAT_ID_DOMESTIC';
  if (to.country !== id.country) return 'VAT_ID_COUNTRY_MISMATCH';
  try {
    return (await vatIdRegistryOf(config).standing(id)) === 'registered' ? null : 'VAT_ID_UNVERIFIED';
  } catch {
    return 'VAT_ID_UNVERIFIED';
  }
}

/** Prices the address: the shipping rate, the destination's VAT and the reverse charge. */
export async function priceDestination(
  config: Config,
  settings: EffectiveSettings,
  body: TotalsBodyType,
  transport: TransportRow | null,
  reads: DestinationReads,
): Promise<PricedDestination> {
  const to = destinationOf(body, settings);
  const vatId = vatIdOf(body);
  const destinationVat = settings.tax_mode === 'destination' && body.countryAlpha2 !== undefined;
  const countryRates: CountryRates = destinationVat
    ? new Map(reads.taxRates.map((r) => [r.taxClass, r.rate]))
    : new Map();
  const problem = vatId === null ? null : await reverseChargeProblem(config, settings, vatId, to);
  return {
    ...shippingOf(transport, reads.rates, to),
    countryRates,
    shippingVatRate: shippingRateOf(transport?.taxClass ?? null, countryRates),
    vatId,
    reverseCharge: vatId !== null && problem === null,
    vatIdError: problem,
  };
}

/** What the totals answer says of the address: the zone rate used, and why a VAT id earned no reverse charge. */
export function destinationJson(priced: PricedDestination): Pick<TotalsJson, 'vatIdError' | 'shippingZone'> {
  const json: Pick<TotalsJson, 'vatIdError' | 'shippingZone'> = {};
  if (priced.shipping) json.shippingZone = { ...priced.shipping };
  if (priced.vatIdError) json.vatIdError = priced.vatIdError;
  return json;
}
