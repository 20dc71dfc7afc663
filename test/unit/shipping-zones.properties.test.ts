import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { mostSpecific, specificity, zoneMatches, type ZoneRules } from '../../src/modules/shipping/zones.ts';
import { bandCost, bandsProblem, type WeightBand } from '../../src/modules/pricing/weight-bands.ts';
import { computeTotals, type TotalsLine } from '../../src/modules/pricing/totals.ts';
import { parseVatId } from '../../src/modules/checkout/vat-id.ts';

// The rules of zones, bands, the reverse charge and VAT ids as properties (docs/shipping-and-tax.md).
// Replay a failure with FC_SEED=<seed>.
const seed = Number(process.env.FC_SEED ?? Date.now());
const runs = { numRuns: 500, seed };

const country = fc.constantFrom('GR', 'CY', 'DE', 'IT');
const prefix = fc.stringMatching(/^[0-9]{1,2}$/);
const zone: fc.Arbitrary<Omit<ZoneRules, 'id'>> = fc.record({
  name: fc.constant('zone'),
  countries: fc.uniqueArray(country, { minLength: 1, maxLength: 3 }),
  regions: fc.oneof(
    fc.constant([]),
    fc.uniqueArray(fc.constantFrom('A', 'M', 'I'), { minLength: 1, maxLength: 2 }),
  ),
  postalCodes: fc.record({
    include: fc.oneof(fc.constant([]), fc.array(prefix, { minLength: 1, maxLength: 2 })),
    exclude: fc.oneof(fc.constant([]), fc.array(prefix, { maxLength: 2 })),
  }),
  priority: fc.integer({ min: 0, max: 3 }),
});
const zones = fc
  .array(zone, { maxLength: 8 })
  .map((list) => list.map((z, i) => ({ zone: { ...z, id: i + 1 } })));
const destination = fc.record({
  country,
  region: fc.option(fc.constantFrom('A', 'M', 'I'), { nil: null }),
  postalCode: fc.option(fc.stringMatching(/^[0-9]{5}$/), { nil: null }),
});

describe('zone choice', () => {
  test('when zones match an address, then the one chosen matches and no matching zone is more specific or, as specific, of higher priority', () => {
    fc.assert(
      fc.property(zones, destination, (items, to) => {
        const chosen = mostSpecific(items, to);
        const matching = items.filter((i) => zoneMatches(i.zone, to));
        if (chosen === undefined) return assert.equal(matching.length, 0);
        assert.ok(zoneMatches(chosen.zone, to));
        for (const other of matching) {
          const [a, b] = [specificity(other.zone), specificity(chosen.zone)];
          assert.ok(a < b || (a === b && other.zone.priority <= chosen.zone.priority));
        }
      }),
      runs,
    );
  });

  test('when a zone with postal rules lies inside a country-wide zone, then it wins for its codes whatever the priorities', () => {
    fc.assert(
      fc.property(prefix, fc.stringMatching(/^[0-9]{3}$/), fc.nat(5), fc.nat(5), (p, rest, pa, pb) => {
        const wide = {
          zone: {
            id: 1,
            name: 'wide',
            countries: ['GR'],
            regions: [],
            postalCodes: { include: [], exclude: [] },
            priority: pa,
          },
        };
        const narrow = {
          zone: {
            id: 2,
            name: 'narrow',
            countries: ['GR'],
            regions: [],
            postalCodes: { include: [p], exclude: [] },
            priority: pb,
          },
        };
        const code = `${p}${rest}`;
        assert.equal(
          mostSpecific([wide, narrow], { country: 'GR', region: null, postalCode: code })?.zone.id,
          2,
        );
        assert.equal(
          mostSpecific([narrow, wide], { country: 'GR', region: null, postalCode: code })?.zone.id,
          2,
        );
      }),
      runs,
    );
  });
});

const bands: fc.Arbitrary<WeightBand[]> = fc
  .array(fc.tuple(fc.integer({ min: 1, max: 5000 }), fc.integer({ min: 0, max: 2000 })), {
    minLength: 1,
    maxLength: 6,
  })
  .map((steps) => {
    let grams = 0;
    let price = 0;
    return steps.map(([g, p]) => {
      grams += g;
      price += p;
      return { upToGrams: grams, price };
    });
  });

describe('weight bands', () => {
  test('when a parcel is heavier, then it never costs less', () => {
    fc.assert(
      fc.property(
        bands,
        fc.integer({ min: 0, max: 1000 }),
        fc.nat(60_000),
        fc.nat(60_000),
        (b, perKg, g1, g2) => {
          const [light, heavy] = g1 <= g2 ? [g1, g2] : [g2, g1];
          assert.ok(bandCost(b, light, perKg).cost <= bandCost(b, heavy, perKg).cost);
        },
      ),
      runs,
    );
  });

  test('when bands ascend in weight and price, then they are accepted, and reversed ones are refused', () => {
    fc.assert(
      fc.property(bands, (b) => {
        const written = b.map((x) => ({ upToKg: x.upToGrams / 1000, price: x.price / 100 }));
        assert.equal(bandsProblem(written), null);
        if (written.length > 1) assert.notEqual(bandsProblem([...written].reverse()), null);
      }),
      runs,
    );
  });

  test('when the quote prices by bands, then heavier carts never pay less shipping', () => {
    fc.assert(
      fc.property(bands, fc.nat(40_000), fc.nat(40_000), (b, g1, g2) => {
        const ship = (grams: number) =>
          computeTotals({
            lines: [{ productId: 1, unitPrice: 1000, qty: 1, weightKg: grams / 1000, vatRate: 24 }],
            transport: {
              price: 0,
              freeShippingThreshold: null,
              includedWeightKg: 0,
              overweightPricePerKg: 150,
              codFee: 0,
              weightBands: b,
            },
          }).shippingCost;
        const [light, heavy] = g1 <= g2 ? [g1, g2] : [g2, g1];
        assert.ok(ship(light) <= ship(heavy));
      }),
      runs,
    );
  });
});

const line: fc.Arbitrary<TotalsLine> = fc.record({
  productId: fc.integer({ min: 1, max: 50 }),
  unitPrice: fc.integer({ min: 1, max: 100_000 }),
  qty: fc.integer({ min: 1, max: 5 }),
  weightKg: fc.constant(0),
  vatRate: fc.constantFrom(0, 5, 7, 13, 19, 24),
});

describe('reverse charge', () => {
  test('when the reverse charge applies, then the buyer pays exactly the net of every rate, and the VAT not charged makes up the rest', () => {
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 6 }), fc.nat(2000), (lines, shipping) => {
        const transport = {
          price: shipping,
          freeShippingThreshold: null,
          includedWeightKg: 0,
          overweightPricePerKg: 0,
          codFee: 0,
        };
        const gross = computeTotals({ lines, transport });
        const net = computeTotals({ lines, transport, reverseCharge: true });
        const netSum = gross.vatBreakdown.reduce((sum, e) => sum + e.net, 0);
        assert.equal(net.total, netSum);
        assert.equal(net.total + net.reverseChargeVat, gross.total);
        assert.deepEqual(
          net.vatBreakdown.map((e) => [e.rate, e.vat, e.gross, e.reverseCharge]),
          netSum ? [[0, 0, netSum, true]] : [],
        );
      }),
      runs,
    );
  });
});

describe('VAT ids', () => {
  test('when a Greek or German number is written, then exactly one check digit makes it valid', () => {
    fc.assert(
      fc.property(fc.constantFrom('EL', 'DE'), fc.stringMatching(/^[1-9][0-9]{7}$/), (prefix, base) => {
        const valid = [...'0123456789'].filter((d) => typeof parseVatId(`${prefix}${base}${d}`) !== 'string');
        assert.equal(valid.length, 1);
      }),
      runs,
    );
  });

  test('when published VAT ids are read, then they pass, and a changed digit or a foreign prefix does not', () => {
    for (const id of [
      'EL094014201',
      'DE136695976',
      'IT00743110157',
      'FR40303265045',
      'ATU13585627',
      'BE0202239951',
      'PL5252248481',
      'PT501964843',
      'DK13585628',
      'FI20774740',
      'SE556703748501',
    ]) {
      assert.equal(typeof parseVatId(id), 'object', id);
    }
    assert.equal(typeof parseVatId('EL094014202'), 'string');
    assert.equal(typeof parseVatId('GR094014201'), 'string');
    assert.equal(typeof parseVatId('CHE123456789'), 'string');
  });
});
