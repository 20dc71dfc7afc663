import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { parseConfig } from '../../src/config.ts';
import { queryRows } from '../../src/db/client.ts';
import { percentOf } from '../../src/lib/money.ts';
import { demoLogins, type SeedResult, seedDemoShop } from '../../src/seed/seed.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

type Json = Record<string, unknown>;

const shopConfig = JSON.parse(
  readFileSync(new URL('../../config/shop.json', import.meta.url), 'utf8'),
) as Json;

describe('demo shop on an empty database', () => {
  let t: TestApp;
  let first: SeedResult;

  before(async () => {
    t = await startTestApp({
      config: { staticUsers: shopConfig.staticUsers, settings: shopConfig.settings },
    });
    first = await seedDemoShop(t.database.db, new Date(), t.app.mediaStorage);
  });
  after(() => t.close());

  const count = async (query: ReturnType<typeof sql>) =>
    Number((await queryRows<{ n: number }>(t.database.db, query))[0].n);

  test('when seeded, then every product shows a picture of its own that the media files serve', async () => {
    assert.ok(first.seeded);
    assert.equal(
      await count(sql`select count(*)::int as n from product where jsonb_array_length(media) <> 1`),
      0,
    );
    assert.equal(
      await count(sql`select count(distinct media->0->>'id')::int as n from product`),
      first.counts.products,
    );
    const product = (await t.app.inject({ url: '/rest/product/product?limit=1' })).json().data[0];
    assert.deepEqual(product.images, [product.media[0].url]);
    const copy = await t.app.inject({ url: `${product.media[0].url}?w=128&format=webp` });
    const meta = await sharp(copy.rawPayload).metadata();
    assert.deepEqual([copy.statusCode, meta.format, meta.width], [200, 'webp', 128]);
  });

  test('when seeded, then a realistic shop: 300+ products in 10+ categories, some inactive, brands and stock', async () => {
    assert.equal(first.seeded, true);
    const db = t.database.db;
    assert.ok((await count(sql`select count(*)::int as n from product`)) >= 300);
    assert.ok((await count(sql`select count(*)::int as n from category`)) >= 10);
    assert.ok((await count(sql`select count(*)::int as n from product where not active`)) > 0);
    assert.ok((await count(sql`select count(distinct brand)::int as n from product`)) >= 10);
    assert.ok((await count(sql`select count(*)::int as n from product where stock_qty = 0`)) > 0);
    assert.ok((await count(sql`select count(*)::int as n from product where weight_kg > 0`)) >= 300);
    assert.ok(
      (await count(sql`select count(*)::int as n from product where reference_price > price`)) > 0,
      'some on sale',
    );
    assert.equal(
      await count(
        sql`select count(*)::int as n from product p where not exists (select 1 from product_price_history h where h.product_id = p.id)`,
      ),
      0,
    );
    assert.ok(
      (await count(
        sql`select count(*)::int as n from transport where free_shipping_threshold is not null and overweight_price_per_kg > 0 and cod_fee > 0`,
      )) >= 1,
    );
    assert.equal(await count(sql`select count(distinct type)::int as n from coupon`), 2);
    assert.ok((await count(sql`select count(*)::int as n from gift where active`)) >= 1);
    assert.ok((await count(sql`select count(*)::int as n from reel`)) >= 3);
    assert.ok((await count(sql`select count(*)::int as n from slider where group_id = 1`)) >= 3);
    assert.ok(db);
  });

  test('when seeded, then ACS lists the islands dearer than Athens, serves Cyprus and the EU, and BOX NOW only Greece', async () => {
    const list = async (query: string) =>
      (await t.app.inject({ method: 'GET', url: `/rest/checkout/transport?${query}` })).json().data as {
        name: string;
        price: number;
        shippingZone: { zoneName: string } | null;
      }[];
    const price = (rows: Awaited<ReturnType<typeof list>>, name: string) =>
      rows.find((r) => r.name === name)?.price;
    const athens = await list('countryAlpha2=GR&postalCode=10558');
    const crete = await list('countryAlpha2=GR&postalCode=71201');
    const rhodes = await list('countryAlpha2=GR&postalCode=85100');
    assert.deepEqual(
      [price(athens, 'ACS courier'), price(crete, 'ACS courier'), price(rhodes, 'ACS courier')],
      [3.5, 3.5, 5.2],
    );
    assert.equal(rhodes.find((r) => r.name === 'ACS courier')?.shippingZone?.zoneName, 'Greek islands');
    assert.equal(price(await list('countryAlpha2=CY'), 'ACS courier'), 14.9);
    const germany = await list('countryAlpha2=DE&postalCode=10115');
    assert.equal(price(germany, 'ACS courier'), 12.9);
    assert.equal(price(germany, 'BOX NOW locker'), undefined);
    assert.equal(price(germany, 'Standard courier'), 19.99);
  });

  test('when seeded, then the demo customer has loyalty points and can log in', async () => {
    const rows = await queryRows<{ loyalty_points: number }>(
      t.database.db,
      sql`select loyalty_points from customer where email = 'demo@example.com'`,
    );
    assert.ok(rows[0].loyalty_points > 0);
    const login = await t.app.inject({
      method: 'POST',
      url: '/rest/auth/customer/login',
      payload: { username: 'demo@example.com', password: 'demo-customer-pw' },
    });
    assert.equal(login.statusCode, 200, login.body);
    const token = login.json().access_token as string;
    const wishlist = await t.app.inject({
      method: 'GET',
      url: '/rest/customer/wishlist',
      headers: { authorization: `Bearer ${token}` },
    });
    assert.ok(wishlist.json().pagination.total > 0);
  });

  test('when seeded, then the demo customer’s points ledger sums to the balance', async () => {
    const login = await t.app.inject({
      method: 'POST',
      url: '/rest/auth/customer/login',
      payload: { username: 'demo@example.com', password: 'demo-customer-pw' },
    });
    const headers = { authorization: `Bearer ${login.json().access_token}` };
    const me = await t.app.inject({ method: 'GET', url: '/rest/auth/customer/me', headers });
    const ledger = await t.app.inject({ method: 'GET', url: '/rest/loyalty/ledger?limit=100', headers });
    assert.equal(ledger.statusCode, 200, ledger.body);
    const rows = ledger.json().data as { delta: number }[];
    const balance = me.json().data.loyaltyPoints;
    assert.equal(balance, 1250);
    assert.equal(
      rows.reduce((sum, row) => sum + row.delta, 0),
      balance,
    );
  });

  test('when the shipped config is used, then the demo admin logs in and the home hero group exists', async () => {
    const login = await t.app.inject({
      method: 'POST',
      url: '/rest/auth/admin/login',
      payload: { username: 'admin@example.com', password: 'demo-admin-pw' },
    });
    assert.equal(login.statusCode, 200, login.body);
    const config = (await t.app.inject({ method: 'GET', url: '/rest/v1/storefront-config' })).json().data;
    const group = await t.app.inject({
      method: 'GET',
      url: `/rest/cms/slider-group/${config.home.heroSliderGroupId}?with=sliders`,
    });
    assert.equal(group.statusCode, 200);
    assert.ok((group.json().data.sliders as Json[]).length >= config.home.heroSliderLimit);
    assert.equal((shopConfig.auth as Json | undefined)?.secret, undefined, 'the shipped config holds no key');
    assert.doesNotThrow(() => parseConfig(shopConfig), 'config/shop.json is a valid configuration');
  });

  test('when guests browse the demo shop, then only active products, with categories and a page of 15', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/rest/product/product?with=category&sort=-price' });
    const active = await count(sql`select count(*)::int as n from product where active`);
    assert.equal(res.json().pagination.total, active);
    assert.equal(res.json().data.length, 15);
    assert.ok((res.json().data as Json[]).every((p) => p.active === true));
  });

  test('when a storefront explores the demo shop, then Greek names, a third category level, sizes and colours', async () => {
    const get = async (url: string) => {
      const res = await t.app.inject({ method: 'GET', url });
      assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
      return res.json() as { data: Json[] & Json; pagination: { total: number } };
    };
    const greek = await get(`/rest/product/product?q=${encodeURIComponent('ελληνικος καφες')}`);
    assert.ok(greek.pagination.total > 0, 'Greek coffee is found without its accents');
    assert.ok(
      (greek.data[0].name as string).includes('Ελληνικός Καφές'),
      JSON.stringify(greek.data.map((p) => p.name)),
    );

    const [greekCategory] = (await get('/rest/product/category?slug=greek-coffee')).data;
    assert.deepEqual(
      (greekCategory.path as Json[]).map((c) => c.name),
      ['Coffee', 'Ground Coffee'],
    );
    const [coffee] = (await get('/rest/product/category?slug=coffee')).data;
    const inCoffee = await get(
      `/rest/product/product?categoryId=${coffee.id}&q=${encodeURIComponent('ελληνικός καφές')}`,
    );
    assert.equal(inCoffee.pagination.total, greek.pagination.total, 'the department holds its third level');

    const inGreek = await get('/rest/product/product?locale=el&limit=1000');
    assert.ok(
      inGreek.data.every((p) => /[α-ωά-ώ]/i.test(p.name as string)),
      'every demo product has a Greek name',
    );
    const slides = (await get('/rest/cms/slider?locale=el')).data;
    assert.ok(slides.every((s) => /[α-ωά-ώ]/i.test(s.title as string)), 'every slide has a Greek title');

    const worn = await get('/rest/product/product?option.Size=XL&option.Colour=Navy&with=variants');
    assert.ok(worn.pagination.total > 0);
    const variants = worn.data[0].variants as Json[];
    assert.equal(variants.length, 12, 'four sizes in three colours');
    const [wornInGreek] = (await get(`/rest/product/product/${worn.data[0].id}?locale=el`).then((r) => [r.data])) as Json[];
    assert.deepEqual(
      (wornInGreek.options as Json[]).map((o) => o.name),
      ['Μέγεθος', 'Χρώμα'],
      'the options are in Greek too',
    );
    const facets = (await get('/rest/product/product/facets')).data as unknown as Json;
    assert.deepEqual(Object.keys(facets.options as Json).sort(), ['Colour', 'Size']);
    assert.ok((facets.brand as Json[]).some((b) => b.value === 'Λουμίδης'));
  });

  test('when seeded, then a tea sale lowers the shown price beside its reference and the back office lists both promotions', async () => {
    const login = await t.app.inject({
      method: 'POST',
      url: '/rest/auth/admin/login',
      payload: { username: 'admin@example.com', password: 'demo-admin-pw' },
    });
    const admin = { authorization: `Bearer ${login.json().access_token}` };
    const listed = await t.app.inject({ url: '/rest/checkout/promotion?sort=id', headers: admin });
    assert.equal(listed.statusCode, 200, listed.body);
    assert.deepEqual(
      (listed.json().data as Json[]).map((p) => [p.kind, p.active, p.action]),
      [
        ['catalog', true, { type: 'percent', value: 15 }],
        ['cart', true, { type: 'percent', value: 10 }],
      ],
    );
    const [tea] = (await t.app.inject({ url: '/rest/product/category?slug=tea' })).json().data as Json[];
    const regular = await queryRows<{ id: number; price: number }>(
      t.database.db,
      sql`select p.id, p.price from product p join category c on c.id = p.category_id
          where c.parent_id = ${tea.id} and p.active and p.reference_price is null order by p.id limit 1`,
    );
    const { id, price } = regular[0];
    const shown = (await t.app.inject({ url: `/rest/product/product/${id}` })).json().data as Json;
    const cents = (amount: unknown) => Math.round(Number(amount) * 100);
    assert.equal(cents(shown.price), price - percentOf(price, 15));
    assert.equal(cents(shown.referencePrice), price, 'the Omnibus reference is the price before the sale');
    const inBackOffice = (await t.app.inject({ url: `/rest/product/product/${id}`, headers: admin })).json()
      .data as Json;
    assert.deepEqual([cents(inBackOffice.price), cents(inBackOffice.salePrice)], [price, cents(shown.price)]);
  });

  test('when seeding runs again, then it refuses and changes nothing', async () => {
    const before = await count(sql`select count(*)::int as n from product`);
    const again = await seedDemoShop(t.database.db);
    assert.deepEqual(again, { seeded: false, products: before });
    assert.equal(await count(sql`select count(*)::int as n from product`), before);
    assert.ok(first.seeded && demoLogins(t.config, first.counts).includes('demo@example.com'));
  });
});
