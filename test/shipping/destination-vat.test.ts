import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { eq } from 'drizzle-orm';
import { products } from '../../src/modules/catalog/catalog.tables.ts';
import { transports } from '../../src/modules/shipping/shipping.tables.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { fillCart, makeProduct, makeTransport, placeOrder, totals, type Who } from '../checkout/fixtures.ts';
import { adminToken, call } from '../checkout/fixtures.ts';
import { cents, create, setSetting } from './zone-fixtures.ts';

// Destination VAT and the B2B reverse charge through HTTP (docs/shipping-and-tax.md): prices stay
// as shown, the VAT inside them is the buyer's country's, and a confirmed business buyer of another
// EU country pays the net amount.

let t: TestApp;
let transport: number;
let standard: number;
let reduced: number;
/** The offline registry answers this well-formed id as not registered (configuration). */
const STRUCK_OFF = 'DE136695976';
const REGISTERED = 'DE136585477';
const GERMANY = { countryAlpha2: 'DE', postalCode: '10115' };
const GREECE = { countryAlpha2: 'GR', postalCode: '10558' };

type VatEntry = { rate: number; net: number; vat: number; gross: number; reverseCharge?: boolean };

before(async () => {
  t = await startTestApp({ config: { vatIds: { unregistered: [STRUCK_OFF] } } });
  transport = await makeTransport(t.app.db, { price: 500 });
  standard = await makeProduct(t.app.db, { price: 12400, vatRate: 24 });
  reduced = await makeProduct(t.app.db, { price: 1130, vatRate: 13 });
  await t.app.db.update(products).set({ taxClass: 'reduced' }).where(eq(products.id, reduced));
  for (const [countryAlpha2, taxClass, rate] of [
    ['GR', 'standard', 24],
    ['GR', 'reduced', 13],
    ['DE', 'standard', 19],
    ['DE', 'reduced', 7],
  ] as const) {
    await create(t.app, 'tax-rate', { countryAlpha2, taxClass, rate });
  }
  await setSetting(t.app, 'tax_mode', 'destination');
  await setSetting(t.app, 'b2b_reverse_charge', true);
});
after(() => t.close());

const cart = (): Promise<Who> =>
  fillCart(t.app, {}, [
    [standard, 1],
    [reduced, 1],
  ]);

async function order(who: Who, body: Record<string, unknown>) {
  const res = await placeOrder(t.app, who, { transportId: transport, email: 'b2b@example.com', ...body });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().data as {
    total: number;
    vatBreakdown: VatEntry[];
    vatId: string | null;
    lines: { vatRate: number }[];
  };
}

describe('destination VAT', () => {
  test("when the same cart goes to Germany or to Greece, then the buyer pays the same and the VAT inside is the destination's", async () => {
    const germany = await order(await cart(), GERMANY);
    const greece = await order(await cart(), GREECE);
    assert.equal(cents(germany.total), 14030);
    assert.equal(cents(greece.total), 14030);
    // Shipping (5.00) is taxed at the highest rate among the lines, at the destination.
    assert.deepEqual(germany.vatBreakdown, [
      { rate: 7, net: 10.56, vat: 0.74, gross: 11.3 },
      { rate: 19, net: 108.4, vat: 20.6, gross: 129 },
    ]);
    assert.deepEqual(greece.vatBreakdown, [
      { rate: 13, net: 10, vat: 1.3, gross: 11.3 },
      { rate: 24, net: 104.03, vat: 24.97, gross: 129 },
    ]);
    assert.deepEqual(germany.lines.map((l) => l.vatRate).sort(), [19, 7].sort());
  });

  test("when the transport has a tax class, then shipping is taxed at the destination's rate of that class", async () => {
    const parcel = await makeTransport(t.app.db, { price: 500 });
    await t.app.db.update(transports).set({ taxClass: 'reduced' }).where(eq(transports.id, parcel));
    const res = await placeOrder(t.app, await cart(), {
      transportId: parcel,
      email: 'r@example.com',
      ...GERMANY,
    });
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual(res.json().data.vatBreakdown, [
      { rate: 7, net: 15.23, vat: 1.07, gross: 16.3 },
      { rate: 19, net: 104.2, vat: 19.8, gross: 124 },
    ]);
  });
});

describe('B2B reverse charge', () => {
  test('when a business of another EU country gives a registered VAT id, then it pays the net amount and the order keeps the id', async () => {
    const who = await cart();
    const quote = (
      await totals(t.app, who, { transportId: transport, ...GERMANY, vatId: REGISTERED })
    ).json();
    assert.equal(cents(quote.total), 11896);
    assert.equal(cents(quote.reverseChargeVat), 2134);
    assert.equal(quote.vatIdError, undefined);
    const placed = await order(who, { ...GERMANY, vatId: 'de 136 585 477', expectedTotal: quote.total });
    assert.equal(placed.vatId, REGISTERED);
    assert.deepEqual(placed.vatBreakdown, [
      { rate: 0, net: 118.96, vat: 0, gross: 118.96, reverseCharge: true },
    ]);
  });

  test('when the VAT id is not confirmed, is domestic or is of another country than the delivery, then VAT is charged and the quote says why', async () => {
    const who = await cart();
    const why = async (vatId: string, address = GERMANY) => {
      const q = (await totals(t.app, who, { transportId: transport, ...address, vatId })).json();
      assert.equal(cents(q.total), 14030);
      return q.vatIdError;
    };
    assert.equal(await why(STRUCK_OFF), 'VAT_ID_UNVERIFIED');
    assert.equal(await why('EL094014201', GREECE), 'VAT_ID_DOMESTIC');
    assert.equal(
      await why(REGISTERED, { countryAlpha2: 'AT', postalCode: '1010' }),
      'VAT_ID_COUNTRY_MISMATCH',
    );
    await setSetting(t.app, 'b2b_reverse_charge', false);
    assert.equal(await why(REGISTERED), 'REVERSE_CHARGE_OFF');
    await setSetting(t.app, 'b2b_reverse_charge', true);
  });

  test('when the VAT id is malformed or its check digit is wrong, then totals and place-order answer 400', async () => {
    const who = await cart();
    for (const vatId of ['DE13658547', 'DE136585478', 'XX123456789']) {
      const quote = await totals(t.app, who, { transportId: transport, ...GERMANY, vatId });
      assert.equal(quote.statusCode, 400, `${vatId}: ${quote.body}`);
      assert.equal(quote.json().error.details[0].field, 'vatId');
    }
    const res = await placeOrder(t.app, who, {
      transportId: transport,
      email: 'x@example.com',
      ...GERMANY,
      vatId: 'DE136585478',
    });
    assert.equal(res.statusCode, 400, res.body);
  });

  test('when the VAT id changes between the quote shown and the order, then expectedTotal and the Idempotency-Key catch it', async () => {
    const who = await cart();
    const gross = (await totals(t.app, who, { transportId: transport, ...GERMANY })).json();
    const changed = await placeOrder(t.app, who, {
      transportId: transport,
      email: 'x@example.com',
      ...GERMANY,
      vatId: REGISTERED,
      expectedTotal: gross.total,
    });
    assert.equal(changed.statusCode, 409, changed.body);
    assert.equal(changed.json().error.code, 'TOTAL_CHANGED');
    const body = { transportId: transport, email: 'x@example.com', ...GERMANY, vatId: REGISTERED };
    assert.equal((await placeOrder(t.app, who, body, 'key-b2b')).statusCode, 201);
    const reused = await placeOrder(t.app, who, { ...body, vatId: undefined }, 'key-b2b');
    assert.equal(reused.statusCode, 422, reused.body);
    assert.equal(reused.json().error.code, 'IDEMPOTENCY_KEY_REUSED');
  });
});

describe('sales report', () => {
  test('when orders went to several countries, then the report gives the VAT per delivery country and rate, equal to the orders to the cent', async () => {
    await order(await cart(), GREECE);
    await order(await cart(), GERMANY);
    const ops = await adminToken(t.app, [6]);
    const list = await call(t.app, 'GET', '/rest/order/order?limit=100', { token: ops });
    type Placed = { address: { countryAlpha2: string }; vatBreakdown: VatEntry[]; status: string };
    const expected = new Map<string, number[]>();
    for (const o of list.json().data as Placed[]) {
      for (const v of o.vatBreakdown) {
        const key = `${o.address.countryAlpha2} ${v.rate}`;
        const sum = expected.get(key) ?? [0, 0, 0];
        expected.set(key, [sum[0] + cents(v.net), sum[1] + cents(v.vat), sum[2] + cents(v.gross)]);
      }
    }
    const res = await call(t.app, 'GET', '/rest/report/sales?interval=month', {
      token: await adminToken(t.app, [7]),
    });
    assert.equal(res.statusCode, 200, res.body);
    type Row = VatEntry & { country: string };
    const reported = new Map<string, number[]>();
    for (const bucket of res.json().data.buckets as { vatByCountry: Row[] }[]) {
      for (const v of bucket.vatByCountry) {
        const key = `${v.country} ${v.rate}`;
        const sum = reported.get(key) ?? [0, 0, 0];
        reported.set(key, [sum[0] + cents(v.net), sum[1] + cents(v.vat), sum[2] + cents(v.gross)]);
      }
    }
    assert.deepEqual([...reported.entries()].sort(), [...expected.entries()].sort());
    assert.ok(reported.has('DE 0') && reported.has('GR 24') && reported.has('DE 19'));
  });
});
