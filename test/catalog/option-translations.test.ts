import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { adminHeaders, create, createProduct, unique } from '../helpers/catalog-factories.ts';

type Json = Record<string, unknown>;

const SIZES = [{ name: 'Size', values: ['Small', 'Large'] }];
const GREEK_SIZES = [{ name: 'Μέγεθος', values: ['Μικρό', 'Μεγάλο'] }];

/** The variants of a product with the options SIZES. */
const variants = () =>
  SIZES[0].values.map((value) => ({ sku: unique('v'), options: { Size: value }, stockQty: 3 }));

describe('translations: options and promotion names', () => {
  let t: TestApp;
  let admin: Record<string, string>;

  before(async () => {
    t = await startTestApp();
    admin = await adminHeaders(t.app, [5, 8]);
  });
  after(() => t.close());

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
  const patch = (url: string, payload: Json) => t.app.inject({ method: 'PATCH', url, headers: admin, payload });

  test('when a product with Greek options is read in el, then its options answer in Greek, in English without a locale', async () => {
    const product = await createProduct(t.app, {
      options: SIZES,
      variants: variants(),
      stockQty: undefined,
      translations: { el: { options: GREEK_SIZES } },
    });
    const greek = (await get(`/rest/product/product/${product.id}?locale=el`)).json().data;
    assert.deepEqual(greek.options, GREEK_SIZES);
    const english = (await get(`/rest/product/product?id=${product.id}`)).json().data[0];
    assert.deepEqual(english.options, SIZES);
    const listed = (await get(`/rest/product/product?id=${product.id}&locale=el`)).json().data[0];
    assert.deepEqual(listed.options, GREEK_SIZES, 'the list answers them too');
  });

  test('when the Greek options do not fit the own ones, then 400 names translations.el.options and nothing is written', async () => {
    const product = await createProduct(t.app, { options: SIZES, variants: variants(), stockQty: undefined });
    const res = await patch(`/rest/product/product/${product.id}`, {
      translations: { el: { options: [{ name: 'Μέγεθος', values: ['Μικρό'] }] } },
    });
    assert.equal(res.statusCode, 400);
    assert.match(res.json().error.message, /translations\.el\.options/);
    const after = (await get(`/rest/product/product/${product.id}?locale=el`)).json().data;
    assert.deepEqual(after.options, SIZES, 'the read falls back to the own options');
  });

  test('when the own options change and the Greek ones no longer fit, then 400 asks for them; written together it passes', async () => {
    const product = await createProduct(t.app, {
      options: SIZES,
      variants: variants(),
      stockQty: undefined,
      translations: { el: { options: GREEK_SIZES } },
    });
    const grown = [{ name: 'Size', values: ['Small', 'Large', 'Huge'] }];
    const alone = await patch(`/rest/product/product/${product.id}`, { options: grown });
    assert.equal(alone.statusCode, 400);
    assert.match(alone.json().error.message, /translations\.el\.options/);
    const together = await patch(`/rest/product/product/${product.id}`, {
      options: grown,
      translations: { el: { options: [{ name: 'Μέγεθος', values: ['Μικρό', 'Μεγάλο', 'Τεράστιο'] }] } },
    });
    assert.equal(together.statusCode, 200, together.body);
    const greek = (await get(`/rest/product/product/${product.id}?locale=el`)).json().data;
    assert.deepEqual(greek.options[0].values, ['Μικρό', 'Μεγάλο', 'Τεράστιο']);
  });

  test('when products are filtered by missingTranslation=el, then one with options but no Greek options is listed', async () => {
    const brand = unique('brand');
    const texts = { name: 'Όνομα', description: 'Περιγραφή', slug: unique('onoma') };
    const missing = await createProduct(t.app, {
      brand,
      options: SIZES,
      variants: variants(),
      stockQty: undefined,
      translations: { el: texts },
    });
    const full = await createProduct(t.app, {
      brand,
      options: SIZES,
      variants: variants(),
      stockQty: undefined,
      translations: { el: { ...texts, slug: unique('onoma'), options: GREEK_SIZES } },
    });
    const ids = ((await get(`/rest/product/product?brand=${brand}&missingTranslation=el`, admin)).json().data as Json[]).map(
      (p) => p.id,
    );
    assert.deepEqual(ids, [missing.id]);
    assert.ok(!ids.includes(full.id));
  });

  test('when q searches an option word, then the JSON of the Greek options does not make every product match', async () => {
    await createProduct(t.app, { options: SIZES, variants: variants(), stockQty: undefined, translations: { el: { options: GREEK_SIZES } } });
    const res = await get(`/rest/product/product?q=values&locale=el`);
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json().data, []);
  });

  test('when a promotion has a Greek name, then the back office reads it in el and the translations map keeps it', async () => {
    const promotion = await create(
      t.app,
      '/rest/checkout/promotion',
      { name: 'Summer sale', kind: 'cart', action: { type: 'percent', value: 10 }, translations: { el: { name: 'Καλοκαιρινές εκπτώσεις' } } },
      admin,
    );
    const greek = (await get(`/rest/checkout/promotion/${promotion.id}?locale=el`, admin)).json().data;
    assert.equal(greek.name, 'Καλοκαιρινές εκπτώσεις');
    assert.deepEqual(greek.translations, { el: { name: 'Καλοκαιρινές εκπτώσεις' } });
    const english = (await get(`/rest/checkout/promotion/${promotion.id}`, admin)).json().data;
    assert.equal(english.name, 'Summer sale');
  });

  test('when a promotion translation names a field that is not translatable, then 400 names it', async () => {
    const promotion = await create(
      t.app,
      '/rest/checkout/promotion',
      { name: unique('Promo'), kind: 'cart', action: { type: 'percent', value: 5 } },
      admin,
    );
    const res = await patch(`/rest/checkout/promotion/${promotion.id}`, { translations: { el: { kind: 'catalog' } } });
    assert.equal(res.statusCode, 400);
    assert.match(JSON.stringify(res.json().error), /kind/);
  });
});
