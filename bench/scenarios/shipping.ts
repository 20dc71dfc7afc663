import { api, create, makeCustomer, makeProducts, makeTransport } from './checkout.ts';
import type { BenchContext, Scenario } from './types.ts';

// The totals of a 5-line customer cart (with a coupon) priced by address: a transport with zone
// rates and weight bands (mainland, islands 80-85, Cyprus, the EU) and destination VAT, quoted for
// an island postal code (41.25 kg: above the last band). Compare its CPU per request with "checkout totals, 5-line customer cart".

async function zonesFor(ctx: BenchContext, transportId: number): Promise<void> {
  const bands = (a: number, b: number, c: number) => [
    { upToKg: 2, price: a },
    { upToKg: 5, price: b },
    { upToKg: 10, price: c },
  ];
  const zones: [Record<string, unknown>, number][] = [
    [{ countries: ['GR'] }, 3.5],
    [{ countries: ['GR'], postalCodes: { include: ['80-85'], exclude: [] } }, 5.2],
    [{ countries: ['CY'] }, 14.9],
    [{ countries: ['DE', 'FR', 'IT', 'ES', 'NL', 'AT', 'BE'] }, 12.9],
  ];
  for (const [i, [rules, price]] of zones.entries()) {
    // Priorities set apart, so repeated setups on one database never tie.
    const zoneId = await create(ctx, '/rest/checkout/shipping-zone', {
      name: `Bench zone ${i}`,
      priority: Date.now() % 1_000_000,
      ...rules,
    });
    await create(ctx, '/rest/checkout/shipping-rate', {
      transportId,
      zoneId,
      price,
      weightBands: bands(price, price + 2, price + 5),
      overweightPricePerKg: 0.1,
      codFee: 2,
    });
  }
}

async function taxRates(ctx: BenchContext): Promise<void> {
  const admin = { authorization: `Bearer ${await ctx.adminToken()}` };
  for (const [taxClass, rate] of [
    ['standard', 24],
    ['reduced', 13],
  ] as const) {
    // A second setup on the same database meets the first one's rows (409): they are the same.
    await api(ctx, 'POST', '/rest/checkout/tax-rate', { countryAlpha2: 'GR', taxClass, rate }, admin);
  }
  await api(ctx, 'PUT', '/rest/system/setting/tax_mode', { value: 'destination' }, admin);
}

const zonedTotals: Omit<Scenario, 'name'> = {
  group: 'checkout',
  connections: 10,
  setup: async (ctx) => {
    const products = await makeProducts(ctx, 5);
    const admin = { authorization: `Bearer ${await ctx.adminToken()}` };
    for (const id of products.filter((_, i) => i % 2)) {
      await api(ctx, 'PATCH', `/rest/product/product/${id}`, { taxClass: 'reduced' }, admin);
    }
    const transportId = await makeTransport(ctx);
    await zonesFor(ctx, transportId);
    await taxRates(ctx);
    const code = `BENCHZ${Date.now().toString(36).toUpperCase()}`;
    await create(ctx, '/rest/checkout/coupon', { code, type: 'percent', value: 10 });
    const token = await makeCustomer(ctx);
    const auth = { authorization: `Bearer ${token}` };
    for (const [i, productId] of products.entries()) {
      const res = await api(ctx, 'POST', '/rest/cart/items', { productId, qty: i + 1 }, auth);
      if (res.status !== 200) throw new Error(`add to cart answered ${res.status}`);
    }
    await api(ctx, 'POST', '/rest/cart/coupon', { code }, auth);
    ctx.state.zonedToken = token;
    ctx.state.zonedTransport = String(transportId);
  },
  request: (ctx) => ({
    method: 'POST',
    path: '/rest/v1/checkout/totals',
    headers: { authorization: `Bearer ${ctx.state.zonedToken}` },
    body: {
      transportId: Number(ctx.state.zonedTransport),
      countryAlpha2: 'GR',
      postalCode: '84100',
      payWay: 'delivery',
      giftPackaging: true,
      redeemPoints: true,
    },
  }),
};

export const shippingScenarios: Scenario[] = [
  {
    ...zonedTotals,
    name: 'checkout totals, 5-line cart, zones, weight bands, destination VAT',
    engines: ['postgres'],
    target: 0.027,
  },
];
