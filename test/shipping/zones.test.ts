import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { count, eq } from 'drizzle-orm';
import { salesOrders } from '../../src/modules/orders/order.tables.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { call, fillCart, makeProduct, makeTransport, placeOrder, totals } from '../checkout/fixtures.ts';
import { admin, cents, create } from './zone-fixtures.ts';

// Shipping zones and rates through HTTP (docs/shipping-and-tax.md): the most specific zone's rate
// prices the shipping, by weight band, and an address no rate serves is refused.

let t: TestApp;
/** A courier priced by zones: mainland Greece, the islands (postal 80-85), Cyprus. */
let courier: number;
let mainland: number;
let islands: number;
const GR_MAINLAND = { countryAlpha2: 'GR', postalCode: '10558' };
const GR_ISLAND = { countryAlpha2: 'GR', postalCode: '84100' };

before(async () => {
  t = await startTestApp();
  courier = await makeTransport(t.app.db, { price: 9999 });
  // Each test file runs on its own database: these zones are the only ones.
  mainland = await create(t.app, 'shipping-zone', { name: 'Greece', countries: ['GR'] });
  islands = await create(t.app, 'shipping-zone', {
    name: 'Greek islands',
    countries: ['GR'],
    postalCodes: { include: ['80-85'], exclude: [] },
  });
  const cyprus = await create(t.app, 'shipping-zone', { name: 'Cyprus', countries: ['CY'] });
  const bands = (a: number, b: number, c: number) => [
    { upToKg: 2, price: a },
    { upToKg: 5, price: b },
    { upToKg: 10, price: c },
  ];
  await create(t.app, 'shipping-rate', {
    transportId: courier,
    zoneId: mainland,
    price: 3.5,
    weightBands: bands(3.5, 4.9, 7.2),
    overweightPricePerKg: 0.8,
    freeShippingThreshold: 70,
    codFee: 2,
  });
  await create(t.app, 'shipping-rate', {
    transportId: courier,
    zoneId: islands,
    price: 5.2,
    weightBands: bands(5.2, 7.4, 11.9),
    overweightPricePerKg: 1.3,
    codFee: 2.5,
  });
  await create(t.app, 'shipping-rate', { transportId: courier, zoneId: cyprus, price: 14.9 });
});
after(() => t.close());

async function cartOf(weightKg: number, price = 1000, qty = 1) {
  const product = await makeProduct(t.app.db, { price, weightKg });
  return fillCart(t.app, {}, [[product, qty]]);
}

describe('shipping zones and rates', () => {
  test('when the address is on an island, then the islands rate prices the shipping, else the mainland one', async () => {
    const who = await cartOf(1);
    const island = (await totals(t.app, who, { transportId: courier, ...GR_ISLAND })).json();
    const athens = (await totals(t.app, who, { transportId: courier, ...GR_MAINLAND })).json();
    const cyprus = (await totals(t.app, who, { transportId: courier, countryAlpha2: 'CY' })).json();
    assert.equal(cents(island.shippingCost), 520);
    assert.deepEqual(island.shippingZone, {
      zoneId: islands,
      zoneName: 'Greek islands',
      rateId: island.shippingZone.rateId,
    });
    assert.equal(cents(athens.shippingCost), 350);
    assert.equal(athens.shippingZone.zoneId, mainland);
    assert.equal(cents(cyprus.shippingCost), 1490);
    assert.equal(cents(island.total), 1000 + 520);
  });

  test('when the parcel is heavier, then the band that holds it prices it, and above the last band each started kg adds', async () => {
    const at = async (kg: number) => {
      const q = (await totals(t.app, await cartOf(kg), { transportId: courier, ...GR_ISLAND })).json();
      return [cents(q.shippingCost), cents(q.overweightCost)];
    };
    assert.deepEqual(await at(2), [520, 0]);
    assert.deepEqual(await at(2.001), [740, 0]);
    assert.deepEqual(await at(10), [1190, 0]);
    // 12.5 kg: 2.5 kg above the last band → 3 started kg × 1.30.
    assert.deepEqual(await at(12.5), [1190 + 390, 390]);
  });

  test("when the merchandise reaches the rate's threshold, then shipping is free, and cash on delivery takes the rate's fee", async () => {
    const who = await cartOf(1, 7000);
    const free = (
      await totals(t.app, who, { transportId: courier, ...GR_MAINLAND, payWay: 'delivery' })
    ).json();
    assert.equal(cents(free.shippingCost), 0);
    assert.equal(cents(free.deliveryCost), 200);
    assert.equal(cents(free.total), 7200);
  });

  test('when no zone of the transport holds the address, then totals and place-order answer 422 SHIPPING_UNAVAILABLE and no order is written', async () => {
    const who = await cartOf(1);
    const quote = await totals(t.app, who, { transportId: courier, countryAlpha2: 'US' });
    assert.equal(quote.statusCode, 422, quote.body);
    assert.equal(quote.json().error.code, 'SHIPPING_UNAVAILABLE');
    const [{ n: before }] = await t.app.db.select({ n: count() }).from(salesOrders);
    const order = await placeOrder(t.app, who, {
      transportId: courier,
      email: 'b@example.com',
      countryAlpha2: 'US',
      postalCode: '10001',
    });
    assert.equal(order.statusCode, 422, order.body);
    assert.equal(order.json().error.code, 'SHIPPING_UNAVAILABLE');
    const [{ n: afterwards }] = await t.app.db.select({ n: count() }).from(salesOrders);
    assert.equal(afterwards, before);
  });

  test('when a transport has no rates, then it keeps its own price whatever the address', async () => {
    const own = await makeTransport(t.app.db, { price: 450 });
    const q = (await totals(t.app, await cartOf(30), { transportId: own, countryAlpha2: 'US' })).json();
    assert.equal(cents(q.shippingCost), 450);
    assert.equal(q.shippingZone, undefined);
  });

  test('when an island order is placed, then it is charged as quoted and keeps the zone and the rate', async () => {
    const who = await cartOf(3);
    const quote = (await totals(t.app, who, { transportId: courier, ...GR_ISLAND })).json();
    const res = await placeOrder(t.app, who, {
      transportId: courier,
      email: 'island@example.com',
      ...GR_ISLAND,
      expectedTotal: quote.total,
    });
    assert.equal(res.statusCode, 201, res.body);
    const order = res.json().data;
    assert.equal(cents(order.totals.shippingCost), 740);
    assert.equal(cents(order.total), cents(quote.total));
    assert.deepEqual(order.shippingZone, quote.shippingZone);
    const [row] = await t.app.db.select().from(salesOrders).where(eq(salesOrders.id, order.id));
    assert.equal(row.shippingRate?.zoneName, 'Greek islands');
  });

  test('when the transports are listed for an address, then only those that deliver there are listed, with the price that applies', async () => {
    const own = await makeTransport(t.app.db, { price: 450 });
    const list = async (query: string) => {
      const res = await call(t.app, 'GET', `/rest/checkout/transport?${query}`);
      assert.equal(res.statusCode, 200, res.body);
      return res.json().data as { id: number; price: number; codFee: number; shippingZone: unknown }[];
    };
    const island = await list('countryAlpha2=GR&postalCode=84100');
    const ours = island.find((tr) => tr.id === courier);
    assert.equal(ours?.price, 5.2);
    assert.equal(ours?.codFee, 2.5);
    assert.equal(island.find((tr) => tr.id === own)?.price, 4.5);
    const abroad = await list('countryAlpha2=US');
    assert.equal(
      abroad.some((tr) => tr.id === courier),
      false,
    );
    assert.equal(
      abroad.some((tr) => tr.id === own),
      true,
    );
    const everything = await list('limit=100');
    assert.equal(everything.find((tr) => tr.id === courier)?.price, 99.99);
  });
});

describe('writing zones and rates', () => {
  test('when a zone holds the same addresses as another with the same priority, then it is refused with 409 naming both', async () => {
    const res = await call(t.app, 'POST', '/rest/checkout/shipping-zone', await admin(t.app), {
      name: 'Islands again',
      countries: ['gr'],
      postalCodes: { include: ['80-85'], exclude: [] },
    });
    assert.equal(res.statusCode, 409, res.body);
    assert.equal(res.json().error.code, 'ZONE_CONFLICT');
    assert.match(res.json().error.message, /Islands again.*Greek islands/);
  });

  test('when two zones that would tie are written at the same moment, then one is stored and the other refused', async () => {
    const token = await admin(t.app);
    const zone = (name: string) =>
      call(t.app, 'POST', '/rest/checkout/shipping-zone', token, {
        name,
        countries: ['MT'],
        postalCodes: { include: ['90'], exclude: [] },
      });
    const answers = await Promise.all([zone('Malta A'), zone('Malta B')]);
    assert.deepEqual(answers.map((a) => a.statusCode).sort(), [201, 409]);
  });

  test('when a zone with postal rules lies inside a country-wide zone, or ties only on countries with another priority, then it is accepted', async () => {
    const crete = await create(t.app, 'shipping-zone', {
      name: 'Heraklion',
      countries: ['GR'],
      postalCodes: { include: ['71'], exclude: [] },
    });
    assert.ok(crete > 0);
    const second = await create(t.app, 'shipping-zone', {
      name: 'Greece (express)',
      countries: ['GR'],
      priority: 5,
    });
    const update = await call(t.app, 'PATCH', `/rest/checkout/shipping-zone/${second}`, await admin(t.app), {
      priority: 0,
    });
    assert.equal(update.statusCode, 409, update.body);
  });

  test('when equally specific zones match, then the higher priority wins', async () => {
    const express = await makeTransport(t.app.db, { price: 100 });
    const low = await create(t.app, 'shipping-zone', { name: 'Low', countries: ['MT'], priority: 1 });
    const high = await create(t.app, 'shipping-zone', { name: 'High', countries: ['MT', 'IT'], priority: 2 });
    await create(t.app, 'shipping-rate', { transportId: express, zoneId: low, price: 10 });
    await create(t.app, 'shipping-rate', { transportId: express, zoneId: high, price: 20 });
    const q = (await totals(t.app, await cartOf(1), { transportId: express, countryAlpha2: 'MT' })).json();
    assert.equal(cents(q.shippingCost), 2000);
  });

  test('when weight bands do not ascend, or a postal rule cannot be read, then the write is refused with 400', async () => {
    const who = await admin(t.app);
    const zone = await create(t.app, 'shipping-zone', { name: 'Baltics', countries: ['LT', 'LV', 'EE'] });
    const bands = (b: unknown[]) =>
      call(t.app, 'POST', '/rest/checkout/shipping-rate', who, {
        transportId: courier,
        zoneId: zone,
        price: 1,
        weightBands: b,
      });
    const down = await bands([
      { upToKg: 5, price: 4 },
      { upToKg: 2, price: 5 },
    ]);
    assert.equal(down.statusCode, 400, down.body);
    const cheaper = await bands([
      { upToKg: 2, price: 5 },
      { upToKg: 5, price: 4 },
    ]);
    assert.equal(cheaper.statusCode, 400, cheaper.body);
    const fraction = await bands([{ upToKg: 2, price: 5.001 }]);
    assert.equal(fraction.statusCode, 400, fraction.body);
    const rule = await call(t.app, 'POST', '/rest/checkout/shipping-zone', who, {
      name: 'Odd',
      countries: ['GR'],
      postalCodes: { include: ['85-8'], exclude: [] },
    });
    assert.equal(rule.statusCode, 400, rule.body);
  });
});
