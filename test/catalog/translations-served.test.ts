import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { adminHeaders, createProduct, unique } from '../helpers/catalog-factories.ts';

// What a locale's texts reach: a search matches only the locales the shop serves, and a change of a
// translation drops the kept answers of every locale (docs/translations.md).

type Json = Record<string, unknown>;

describe('translations: served locales and kept answers', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let developer: Record<string, string>;

  before(async () => {
    t = await startTestApp();
    admin = await adminHeaders(t.app, [5]);
    developer = await adminHeaders(t.app, [2]);
  });
  after(() => t.close());

  const get = (url: string) => t.app.inject({ method: 'GET', url });
  const namesOf = async (url: string) => {
    const res = await get(url);
    assert.equal(res.statusCode, 200, res.body);
    return (res.json().data as Json[]).map((p) => p.name);
  };
  const setLocales = async (locales: string[]) => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/rest/system/setting/locales',
      headers: developer,
      payload: { value: locales },
    });
    assert.equal(res.statusCode, 200, res.body);
  };

  test('when el is removed from locales, then q in Greek no longer finds the product; added back, it does again', async () => {
    const word = unique('kaf').replace(/[^a-z0-9]/g, '');
    const product = await createProduct(t.app, {
      name: `Coffee ${word}`,
      translations: { el: { name: `Καφεδάκι ${word}` } },
    });
    const greek = `/rest/product/product?q=${encodeURIComponent(`καφεδακι ${word}`)}`;
    assert.deepEqual(await namesOf(greek), [product.name], 'served: the Greek text matches');
    assert.deepEqual(await namesOf(greek), [product.name], 'kept from the second ask');
    await setLocales(['en']);
    try {
      assert.deepEqual(await namesOf(greek), [], 'el is not served: its text does not match');
      const total = (await get(greek)).json().pagination.total;
      assert.equal(total, 0, 'nor does the kept total count it');
      assert.deepEqual(await namesOf(`/rest/product/product?q=${word}`), [product.name], 'the English text still does');
    } finally {
      await setLocales(['en', 'el']);
    }
    assert.deepEqual(await namesOf(greek), [product.name], 'served again: the kept text matches again');
  });

  test('when an admin changes the Greek name, then the next el read shows it and the en answer stays English', async () => {
    const brand = unique('brand');
    const product = await createProduct(t.app, { brand, name: 'Espresso cup', translations: { el: { name: 'Φλιτζάνι' } } });
    const greekList = `/rest/product/product?brand=${brand}&locale=el`;
    const englishList = `/rest/product/product?brand=${brand}`;
    for (let ask = 0; ask < 2; ask++) {
      // Kept from the second ask (docs/performance.md).
      assert.deepEqual(await namesOf(greekList), ['Φλιτζάνι']);
      assert.deepEqual(await namesOf(englishList), ['Espresso cup']);
    }
    const hits = t.app.responseCache?.answers.hits ?? 0;
    assert.deepEqual(await namesOf(greekList), ['Φλιτζάνι']);
    assert.equal(t.app.responseCache?.answers.hits, hits + 1, 'the Greek answer is kept');

    const res = await t.app.inject({
      method: 'PATCH',
      url: `/rest/product/product/${product.id}`,
      headers: admin,
      payload: { translations: { el: { name: 'Φλιτζάνι espresso' } } },
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(await namesOf(greekList), ['Φλιτζάνι espresso'], 'the kept Greek answer was dropped');
    assert.deepEqual(await namesOf(englishList), ['Espresso cup']);
  });

  test('when a back-office browser prefers el, then the admin reads the own fields (a form saves them) unless ?locale= asks', async () => {
    const product = await createProduct(t.app, { name: 'Tea', translations: { el: { name: 'Τσάι' } } });
    const read = (url: string) =>
      t.app.inject({ method: 'GET', url, headers: { ...admin, 'accept-language': 'el-GR,el;q=0.9' } });
    const own = await read(`/rest/product/product/${product.id}`);
    assert.equal(own.json().data.name, 'Tea');
    assert.equal(own.json().data.translations.el.name, 'Τσάι');
    assert.equal(own.headers['content-language'], 'en');
    const asked = await read(`/rest/product/product/${product.id}?locale=el`);
    assert.equal(asked.json().data.name, 'Τσάι');
  });
});
