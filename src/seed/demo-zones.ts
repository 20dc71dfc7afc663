import type { Db } from '../db/client.ts';
import { transports } from '../modules/shipping/shipping.tables.ts';
import { shippingRates, shippingZones, taxRates } from '../modules/shipping/zones.tables.ts';

// The demo shop's zones (docs/shipping-and-tax.md): a Greek shop whose couriers charge more for the
// islands (postal codes 80-85), Cyprus and the rest of the EU, by weight bands as Greek couriers do.
// The demo's first transports keep their own prices; these two are priced by zone.

const EU_OTHERS = [
  'AT',
  'BE',
  'BG',
  'CZ',
  'DE',
  'DK',
  'EE',
  'ES',
  'FI',
  'FR',
  'HR',
  'HU',
  'IE',
  'IT',
  'LT',
  'LU',
  'LV',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SE',
  'SI',
  'SK',
];

const ZONES = [
  { name: 'Mainland Greece', countries: ['GR'] },
  { name: 'Greek islands', countries: ['GR'], postalCodes: { include: ['80-85'], exclude: [] } },
  { name: 'Cyprus', countries: ['CY'] },
  { name: 'European Union', countries: EU_OTHERS },
];

/** Bands up to 2, 5 and 10 kg (cents as decimals in JSON, as the API writes them). */
const bands = (two: number, five: number, ten: number) => [
  { upToKg: 2, price: two },
  { upToKg: 5, price: five },
  { upToKg: 10, price: ten },
];

type Rate = Omit<typeof shippingRates.$inferInsert, 'transportId' | 'zoneId'>;

/** Per transport: its rate in each zone it serves, by zone index (a zone it lacks is not served). */
const TRANSPORTS: { row: typeof transports.$inferInsert; rates: Record<number, Rate> }[] = [
  {
    row: {
      name: 'ACS courier',
      description: 'Door to door, by weight and destination',
      price: 350,
      codFee: 200,
      position: 4,
    },
    rates: {
      0: {
        price: 350,
        weightBands: bands(3.5, 4.9, 7.2),
        overweightPricePerKg: 80,
        freeShippingThreshold: 7000,
        codFee: 200,
      },
      1: {
        price: 520,
        weightBands: bands(5.2, 7.4, 11.9),
        overweightPricePerKg: 130,
        freeShippingThreshold: 10000,
        codFee: 250,
      },
      2: { price: 1490, weightBands: bands(14.9, 19.9, 29.9), overweightPricePerKg: 250, codFee: 0 },
      3: { price: 1290, weightBands: bands(12.9, 17.9, 26.9), overweightPricePerKg: 220, codFee: 0 },
    },
  },
  {
    row: {
      name: 'BOX NOW locker',
      description: 'Collect from a locker, Greece only',
      price: 250,
      position: 5,
    },
    rates: {
      0: {
        price: 250,
        weightBands: [
          { upToKg: 3, price: 2.5 },
          { upToKg: 10, price: 3.5 },
        ],
        codFee: 100,
      },
      1: {
        price: 390,
        weightBands: [
          { upToKg: 3, price: 3.9 },
          { upToKg: 10, price: 5.5 },
        ],
        codFee: 150,
      },
    },
  },
];

/** Standard and reduced VAT of the countries the demo ships to most (percent). */
const TAX_RATES: [string, number, number][] = [
  ['GR', 24, 13],
  ['CY', 19, 9],
  ['DE', 19, 7],
  ['FR', 20, 5.5],
  ['IT', 22, 10],
  ['ES', 21, 10],
  ['NL', 21, 9],
  ['AT', 20, 10],
  ['BE', 21, 6],
  ['BG', 20, 9],
];

export const DEMO_ZONE_TRANSPORTS = TRANSPORTS.length;

/** Zones, the zone-priced transports with their rates, and the tax rates. */
export async function insertDemoZones(tx: Db): Promise<void> {
  const zoneIds = (await tx.insert(shippingZones).values(ZONES).returning({ id: shippingZones.id })).map(
    (z) => z.id,
  );
  for (const transport of TRANSPORTS) {
    const [row] = await tx.insert(transports).values(transport.row).returning({ id: transports.id });
    await tx
      .insert(shippingRates)
      .values(
        Object.entries(transport.rates).map(([zone, rate]) => ({
          ...rate,
          transportId: row.id,
          zoneId: zoneIds[Number(zone)],
        })),
      );
  }
  await tx.insert(taxRates).values(
    TAX_RATES.flatMap(([countryAlpha2, standard, reduced]) => [
      { countryAlpha2, taxClass: 'standard', rate: standard },
      { countryAlpha2, taxClass: 'reduced', rate: reduced },
    ]),
  );
}
