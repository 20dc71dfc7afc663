import { type Placeholder, type SQL, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client.ts';
import type { WeightBandJson } from './zones.tables.ts';
import type { ZoneRules } from './zones.ts';

// The reads of zones, rates and tax rates as fragments: the quote's one statement embeds them
// (checkout/quote.repo.ts), so pricing an address costs no round trip of its own.

/** An active rate of a transport with its zone, money in cents (the bands' prices as written). */
export interface RateOption {
  rateId: number;
  transportId: number;
  zone: ZoneRules;
  price: number;
  freeShippingThreshold: number | null;
  weightBands: WeightBandJson[];
  overweightPricePerKg: number;
  codFee: number;
}

/** A country's VAT rate of one tax class. */
export interface CountryTaxRate {
  taxClass: string;
  rate: number;
}

const RATE_JSON = sql`json_build_object('rateId', r.id, 'transportId', r.transport_id, 'price', r.price,
  'freeShippingThreshold', r.free_shipping_threshold, 'weightBands', r.weight_bands,
  'overweightPricePerKg', r.overweight_price_per_kg, 'codFee', r.cod_fee,
  'zone', json_build_object('id', z.id, 'name', z.name, 'countries', z.countries, 'regions', z.regions,
    'postalCodes', z.postal_codes, 'priority', z.priority))`;

/** The active rates of the transport `transportId` names, as one JSON array ([] without any). */
export function transportRatesJson(transportId: SQL | Placeholder) {
  return sql<RateOption[]>`(select coalesce(json_agg(${RATE_JSON} order by r.id), '[]'::json)
    from shipping_rate r join shipping_zone z on z.id = r.zone_id
    where r.transport_id = ${transportId} and r.active)`;
}

/** The VAT rates `country` defines, as one JSON array ([] for none, or a null country). */
export function countryTaxRatesJson(country: SQL | Placeholder) {
  return sql<CountryTaxRate[]>`(select coalesce(json_agg(json_build_object('taxClass', t.tax_class,
      'rate', t.rate::float8)), '[]'::json)
    from tax_rate t where t.country_alpha2 = upper(${country}))`;
}

/** Every active rate of the active transports, for the transport list of one address. */
export async function activeRates(db: Db): Promise<RateOption[]> {
  const rows = await queryRows<{ r: RateOption }>(
    db,
    sql`select ${RATE_JSON} as r from shipping_rate r join shipping_zone z on z.id = r.zone_id
      join transport t on t.id = r.transport_id where r.active and t.active order by r.id`,
  );
  return rows.map((row) => row.r);
}
