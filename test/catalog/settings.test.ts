import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildApp } from '../../src/app.ts';
import { SETTING_KEYS } from '../../src/modules/settings/registry.ts';
import { getSetting, readSettings, settingCents } from '../../src/modules/settings/settings.service.ts';
import { startTestApp, type TestApp, testConfig } from '../helpers/app.ts';
import {
  adminHeaders,
  customerHeaders,
  insertCustomer,
  setStoredSetting,
} from '../helpers/catalog-factories.ts';

type Json = Record<string, unknown>;

describe('settings registry, features and storefront config (docs/resources.md, "Settings registry")', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let developer: Record<string, string>;

  before(async () => {
    t = await startTestApp({ config: { settings: { products_list_max: 60, video_homepage_limit: 4 } } });
    admin = await adminHeaders(t.app, [3]);
    developer = await adminHeaders(t.app, [2]);
  });
  after(() => t.close());

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers });
  const put = (key: string, value: unknown, headers = developer) =>
    t.app.inject({ method: 'PUT', url: `/rest/system/setting/${key}`, headers, payload: { value } });

  test('when the storefront config is read, then every section and field has the spec type', async () => {
    const res = await get('/rest/v1/storefront-config');
    assert.equal(res.statusCode, 200);
    const { success, data } = res.json();
    assert.equal(success, true);
    assert.deepEqual(Object.keys(data).sort(), [
      'appUpdate',
      'home',
      'listing',
      'loyalty',
      'priceTracking',
      'shipping',
      'videoShowcase',
    ]);
    assert.deepEqual(data.listing, { perPageDefault: 24, perPageOptions: [24, 48, 72], perPageMax: 60 });
    assert.deepEqual(data.loyalty, { spendPoints: 100, rewardCashPerUnit: 5 });
    assert.deepEqual(data.shipping, { freeShippingThreshold: 250 });
    assert.deepEqual(data.videoShowcase, { homepageLimit: 4 });
    assert.deepEqual(data.priceTracking, {
      enabled: true,
      discountLabel: { en: 'Lowest price in the last 30 days' },
      badgeLabel: { en: 'Deal' },
    });
    for (const os of ['android', 'ios']) {
      assert.equal(typeof data.appUpdate[os].minimumVersion, 'string');
      assert.match(data.appUpdate[os].storeUrl, /^https:\/\//);
    }
    assert.deepEqual(data.home, { heroSliderGroupId: 1, heroSliderLimit: 5 });
    assert.ok(
      data.listing.perPageOptions.every((n: unknown) => Number.isInteger(n)),
      'a flat integer array',
    );
    const alias = await get('/rest/storefront-config');
    assert.deepEqual(alias.json(), res.json());
  });

  test('when features are read, then four booleans from the feature_* keys', async () => {
    const res = await get('/rest/features');
    assert.deepEqual(res.json(), {
      success: true,
      data: { loyalty: true, giftPackaging: true, wishlist: true, guestCheckout: true },
    });
    await put('feature_loyalty', false);
    assert.equal((await get('/rest/features')).json().data.loyalty, false);
    await t.app.inject({ method: 'DELETE', url: '/rest/system/setting/feature_loyalty', headers: developer });
  });

  test('when a value is PUT, then it wins over the configuration and shows live; DELETE returns to it', async () => {
    const res = await put('products_list_max', 90, admin);
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().data.value, 90);
    assert.equal(res.json().data.source, 'database');
    assert.equal((await get('/rest/v1/storefront-config')).json().data.listing.perPageMax, 90);
    await put('loyalty_reward_cash_per_unit', 2.5);
    await put('price_tracking_badge_label', { en: 'Hot', ro: 'Ofertă' });
    const config = (await get('/rest/v1/storefront-config')).json().data;
    assert.equal(config.loyalty.rewardCashPerUnit, 2.5);
    assert.deepEqual(config.priceTracking.badgeLabel, { en: 'Hot', ro: 'Ofertă' });
    const reset = await t.app.inject({
      method: 'DELETE',
      url: '/rest/system/setting/products_list_max',
      headers: admin,
    });
    assert.equal(reset.json().data.value, 60, 'back to the configuration value');
    assert.equal(reset.json().data.source, 'config');
    assert.equal((await get('/rest/v1/storefront-config')).json().data.listing.perPageMax, 60);
  });

  test('when a value does not fit its key, then 400; an unknown key is 404', async () => {
    const bad: [string, unknown][] = [
      ['rest_max_page_size', 'abc'],
      ['rest_max_page_size', 0],
      ['rest_max_page_size', 2.5],
      ['currency', 'eur'],
      ['products_list_options', []],
      ['products_list_options', [24, 'x']],
      ['feature_loyalty', 'yes'],
      ['gift_packaging_price', 1.999],
      ['gift_packaging_price', -1],
      ['app_ios_store_url', 'javascript:alert(1)'],
      ['price_tracking_discount_label', 'Deal'],
    ];
    for (const [key, value] of bad) {
      const res = await put(key, value);
      assert.equal(res.statusCode, 400, `${key}=${JSON.stringify(value)}`);
      assert.equal(res.json().error.code, 'VALIDATION_FAILED');
    }
    assert.equal((await put('no_such_key', 1)).statusCode, 404);
    assert.equal(
      (await t.app.inject({ method: 'DELETE', url: '/rest/system/setting/no_such_key', headers: admin }))
        .statusCode,
      404,
    );
    const noValue = await t.app.inject({
      method: 'PUT',
      url: '/rest/system/setting/currency',
      headers: admin,
      payload: {},
    });
    assert.equal(noValue.statusCode, 400);
  });

  test('when a setting value is nested thousands deep or larger than 64 KiB, then 400 naming the setting, never 500', async () => {
    const raw = (key: string, json: string) =>
      t.app.inject({
        method: 'PUT',
        url: `/rest/system/setting/${key}`,
        headers: { ...developer, 'content-type': 'application/json' },
        payload: `{"value":${json}}`,
      });
    const cases: [string, string, string][] = [
      ['price_tracking_badge_label', `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`, 'nested more than 8'],
      ['products_list_options', `${'['.repeat(5000)}${']'.repeat(5000)}`, 'nested more than 8'],
      ['price_tracking_badge_label', `${'{"en":'.repeat(9)}"x"${'}'.repeat(9)}`, 'nested more than 8'],
      ['products_list_options', `[${Array(22_000).fill(24).join(',')}]`, 'larger than 64 KiB'],
    ];
    const label = async () => (await get('/rest/v1/storefront-config')).json().data.priceTracking.badgeLabel;
    const before = await label();
    for (const [key, json, problem] of cases) {
      const res = await raw(key, json);
      assert.equal(res.statusCode, 400, `${key}: ${res.body.slice(0, 200)}`);
      assert.equal(res.json().error.code, 'VALIDATION_FAILED');
      assert.match(res.json().error.message, new RegExp(`^value of ${key} is ${problem}`));
    }
    assert.deepEqual(await label(), before, 'nothing stored');
  });

  test('when a label map names a key that is not a locale code, then 400; locale codes are kept', async () => {
    for (const value of [
      { foo: 'x' },
      { en: 'x', EN: 'y' },
      { en_US: 'x' },
      { '': 'x' },
      { en: 'x', a: { a: 1 } },
    ]) {
      const res = await put('price_tracking_discount_label', value);
      assert.equal(res.statusCode, 400, JSON.stringify(value));
      assert.match(res.json().error.message, /^value of price_tracking_discount_label /);
    }
    const kept = await put('price_tracking_discount_label', {
      en: 'Lowest',
      el: 'Χαμηλότερη',
      'en-GB': 'Lowest',
    });
    assert.equal(kept.statusCode, 200, kept.body);
    assert.deepEqual((await get('/rest/v1/storefront-config')).json().data.priceTracking.discountLabel, {
      en: 'Lowest',
      el: 'Χαμηλότερη',
      'en-GB': 'Lowest',
    });
    await t.app.inject({
      method: 'DELETE',
      url: '/rest/system/setting/price_tracking_discount_label',
      headers: developer,
    });
  });

  test('when an app store URL is PUT, then an https URL is kept and shown; a path or another scheme is 400', async () => {
    for (const key of ['app_android_store_url', 'app_ios_store_url']) {
      const url = `https://apps.example.com/${key}?id=1`;
      const res = await put(key, url);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().data.value, url);
      for (const bad of ['/store', 'javascript:alert(1)', '//apps.example.com/x', 'itms-apps://x']) {
        const refused = await put(key, bad);
        assert.equal(refused.statusCode, 400, `${key}=${bad}`);
        assert.equal(refused.json().error.message, `value of ${key} must be an http(s) URL`);
      }
    }
    const config = (await get('/rest/v1/storefront-config')).json().data.appUpdate;
    assert.equal(config.ios.storeUrl, 'https://apps.example.com/app_ios_store_url?id=1');
    assert.equal(config.android.storeUrl, 'https://apps.example.com/app_android_store_url?id=1');
  });

  test('when the registry is listed, then every key with its effective value; only Developer or Admin', async () => {
    const res = await get('/rest/system/setting', developer);
    assert.equal(res.statusCode, 200);
    const entries = res.json().data as Json[];
    assert.deepEqual(entries.map((e) => e.key).sort(), [...SETTING_KEYS].sort());
    const max = entries.find((e) => e.key === 'products_list_max')!;
    assert.deepEqual(
      { value: max.value, defaultValue: max.defaultValue, source: max.source },
      { value: 60, defaultValue: 72, source: 'config' },
    );
    assert.equal(res.json().pagination.total, SETTING_KEYS.length);
    assert.equal((await get('/rest/system/setting/currency', admin)).json().data.value, 'EUR');
    assert.equal((await get('/rest/system/setting', await adminHeaders(t.app, [5]))).statusCode, 403);
    assert.equal(
      (await get('/rest/system/setting', await customerHeaders(t.app, await insertCustomer(t.database.db))))
        .statusCode,
      403,
    );
    assert.equal((await get('/rest/system/setting')).statusCode, 401);
    assert.equal((await put('currency', 'USD', await adminHeaders(t.app, [8]))).statusCode, 403);
  });

  test('when a bad value is stored directly in the database, then readers fall back to the default', async () => {
    await setStoredSetting(t.database.db, 'loyalty_spend_points', 'many');
    await setStoredSetting(t.database.db, 'products_list_options', { not: 'a list' });
    // Written in SQL, as another instance would: this instance reads the versions before its next read.
    await t.app.responseCache?.versions.refresh();
    await get('/rest/v1/storefront-config'); // kept from the second ask
    const config = (await get('/rest/v1/storefront-config')).json().data;
    assert.equal(config.loyalty.spendPoints, 100);
    assert.deepEqual(config.listing.perPageOptions, [24, 48, 72]);
    await setStoredSetting(t.database.db, 'loyalty_spend_points', 250);
    await t.app.responseCache?.versions.refresh();
    assert.equal((await get('/rest/v1/storefront-config')).json().data.loyalty.spendPoints, 250);
  });

  test('when other modules use the settings API, then values are typed and money reads in cents', async () => {
    const db = t.database.db;
    await setStoredSetting(db, 'gift_packaging_price', 12.5);
    const settings = await readSettings(db, t.config);
    assert.equal(settings.gift_packaging_price, 12.5);
    assert.equal(settingCents(settings, 'gift_packaging_price'), 1250);
    assert.equal(settingCents(settings, 'loyalty_reward_cash_per_unit'), 250, 'set to 2.5 above');
    assert.equal(await getSetting(db, t.config, 'video_homepage_limit'), 4);
    assert.equal(await getSetting(db, t.config, 'gift_packaging_price'), 12.5);
    assert.equal(await getSetting(db, t.config, 'feature_guest_checkout'), true);
  });

  test('when the configuration names an unknown setting or a wrong type, then the app refuses to start', async () => {
    for (const settings of [{ no_such_key: 1 }, { rest_max_page_size: 'big' }]) {
      await assert.rejects(
        buildApp({ config: testConfig({ settings }), database: t.database, logger: false }),
        /settings\.(no_such_key|rest_max_page_size)/,
      );
    }
  });
});
