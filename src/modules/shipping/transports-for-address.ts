import { Type } from '@sinclair/typebox';
import { okList } from '../../http/envelope.ts';
import { fromCents } from '../../lib/money.ts';
import {
  type ListVariant,
  listEntities,
  paginationOf,
  type RequestContext,
  type Resource,
  type Row,
} from '../../resources/index.ts';
import { priceFor } from './destination.ts';
import { activeRates, type RateOption } from './rates.repo.ts';

// GET /rest/checkout/transport?countryAlpha2=&postalCode=&countyAlpha= (docs/shipping-and-tax.md):
// only the transports that deliver there, each with the price fields of the rate that applies.
// Shops have a handful of transports, so the answer is one page holding all of them.

const ADDRESS_PARAMS = {
  countryAlpha2: Type.Optional(
    Type.String({ pattern: '^[A-Za-z]{2}$', description: 'Only transports that deliver to this country' }),
  ),
  postalCode: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 16,
      pattern: '^[A-Za-z0-9 -]+$',
      description: 'With countryAlpha2',
    }),
  ),
  countyAlpha: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 10,
      pattern: '^[A-Za-z0-9-]+$',
      description: 'With countryAlpha2',
    }),
  ),
};

/** A transport row priced by a zone's rate: the rate's fields in place of the transport's own. */
function priced(row: Row, rate: RateOption): Row {
  return {
    ...row,
    price: fromCents(rate.price),
    freeShippingThreshold: rate.freeShippingThreshold === null ? null : fromCents(rate.freeShippingThreshold),
    includedWeightKg: 0,
    overweightPricePerKg: fromCents(rate.weightBands.length ? rate.overweightPricePerKg : 0),
    codFee: fromCents(rate.codFee),
    weightBands: rate.weightBands,
    shippingZone: { zoneId: rate.zone.id, zoneName: rate.zone.name, rateId: rate.rateId },
  };
}

async function answer(rctx: RequestContext, resource: Resource, query: Record<string, unknown>) {
  const { countryAlpha2, postalCode, countyAlpha, page, limit, ...rest } = query;
  if (typeof countryAlpha2 !== 'string') return undefined;
  const [list, rates] = await Promise.all([
    listEntities(rctx, resource, { ...rest, page: 1, limit: 1000 }),
    activeRates(rctx.db),
  ]);
  const to = {
    country: countryAlpha2.toUpperCase(),
    region: typeof countyAlpha === 'string' ? countyAlpha : null,
    postalCode: typeof postalCode === 'string' ? postalCode : null,
  };
  const rows: Row[] = JSON.parse(list.toString()).data;
  const data = rows.flatMap((row) => {
    const price = priceFor(
      rates.filter((r) => r.transportId === row.id),
      to,
    );
    if (price.kind === 'unavailable') return [];
    return [price.kind === 'own' ? row : priced(row, price.rate)];
  });
  const pagination = paginationOf(1, Math.max(data.length, 1), data.length);
  return JSON.stringify(okList(data, pagination));
}

export const transportsForAddress: ListVariant = { params: ADDRESS_PARAMS, answer };
