import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import {
  adminHeaders,
  create,
  createCategory,
  createProduct,
  setStoredSetting,
  unique,
} from '../helpers/catalog-factories.ts';

type Json = Record<string, unknown>;

describe('translations: the catalog in Greek and English', () => {
  let t: TestApp;
  let admin: Record<string, string>;

  before(async () => {
    t = await startTestApp();
    admin = await adminHeaders(t.app, [5]);
  });
  after(() => t.close());

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers });

  /** A product with a Greek name, slug and description. */
  async function greekProduct(overrides: Json = {}): Promise<Json> {
    const slug = unique('coffee');
    return createProduct(t.app, {
      name: `Coffee ${slug}`,
      slug,
      description: 'Roasted beans',
      translations: { el: { name: `Καφές ${slug}`, slug: `kafes-${slug}`, description: 'Καβουρδισμένοι κόκκοι' } },
      ...overrides,
    });
  }

  test('when a guest asks ?locale=el, then the translated fields answer in Greek with Content-Language el', async () => {
    const product = await greekProduct();
    const res = await get(`/rest/product/product/${product.id}?locale=el`);
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-language'], 'el');
    const data = res.json().data;
    assert.equal(data.name, `Καφές ${product.slug}`);
    assert.equal(data.description, 'Καβουρδισμένοι κόκκοι');
    assert.equal(data.slug, `kafes-${product.slug}`);
    assert.equal(data.translations, undefined, 'guests do not see the translations map');
  });

  test('when no locale is asked, then the own fields answer with Content-Language of the default locale', async () => {
    const product = await greekProduct();
    const res = await get(`/rest/product/product/${product.id}`);
    assert.equal(res.headers['content-language'], 'en');
    assert.equal(res.json().data.name, product.name);
    assert.match(String(res.headers.vary), /Accept-Language/);
  });

  test('when Accept-Language prefers el-GR, then Greek is served; with q values the best enabled one wins', async () => {
    const product = await greekProduct();
    const greek = await get(`/rest/product/product/${product.id}`, { 'accept-language': 'el-GR,el;q=0.9,en;q=0.5' });
    assert.equal(greek.headers['content-language'], 'el');
    assert.equal(greek.json().data.name, `Καφές ${product.slug}`);
    const german = await get(`/rest/product/product/${product.id}`, {
      'accept-language': 'de-DE, en;q=0.3, el;q=0.8',
    });
    assert.equal(german.headers['content-language'], 'el', 'de is not enabled: the next best is el');
    const none = await get(`/rest/product/product/${product.id}`, { 'accept-language': 'fr, de;q=0.5' });
    assert.equal(none.headers['content-language'], 'en');
    assert.equal(none.json().data.name, product.name);
  });

  test('when a field has no translation, then it falls back to the default text', async () => {
    const product = await createProduct(t.app, { description: 'Only English', translations: { el: { name: 'Τσάι' } } });
    const data = (await get(`/rest/product/product/${product.id}?locale=el`)).json().data;
    assert.equal(data.name, 'Τσάι');
    assert.equal(data.description, 'Only English');
  });

  test('when ?locale= names a locale that is not enabled, then 400 names it', async () => {
    const res = await get('/rest/product/product?locale=de');
    assert.equal(res.statusCode, 400);
    assert.match(res.json().error.message, /locale de/);
  });

  test('when the list is read in el, then the page is in Greek and the ETag differs from the English one', async () => {
    const product = await greekProduct();
    const url = `/rest/product/product?slug=${product.slug}`;
    const en = await get(url);
    const el = await get(`${url}&locale=el`);
    assert.equal(el.json().data[0].name, `Καφές ${product.slug}`);
    assert.notEqual(en.headers.etag, el.headers.etag);
    const revalidated = await get(`${url}&locale=el`, { 'if-none-match': String(en.headers.etag) });
    assert.equal(revalidated.statusCode, 200, 'the English ETag does not match the Greek answer');
    // Sent as its UTF-8 bytes: the length a client reads up to counts bytes, not characters.
    assert.equal(Number(el.headers['content-length']), Buffer.byteLength(el.body));
    assert.ok(Buffer.byteLength(el.body) > el.body.length, 'the Greek page holds multi-byte characters');
    const same = await get(`${url}&locale=el`, { 'if-none-match': String(el.headers.etag) });
    assert.equal(same.statusCode, 304, 'the Greek ETag revalidates the Greek answer');
  });

  test('when slug= is the Greek slug, then the product is found in any locale', async () => {
    const product = await greekProduct();
    const res = await get(`/rest/product/product/item?slug=kafes-${product.slug}`);
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().data.id, product.id);
  });

  test('when q is Greek without accents, then the product is found and its Greek name answers', async () => {
    const product = await greekProduct();
    const res = await get(`/rest/product/product?q=${encodeURIComponent(`καφες ${product.slug}`)}&locale=el`);
    assert.deepEqual(
      (res.json().data as Json[]).map((p) => p.name),
      [`Καφές ${product.slug}`],
    );
  });

  test('when an admin reads a product, then translations answer; a PATCH merges one locale and null removes a text', async () => {
    const product = await greekProduct();
    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/rest/product/product/${product.id}`,
      headers: admin,
      payload: { translations: { el: { description: null, name: 'Νέο όνομα' } } },
    });
    assert.equal(patched.statusCode, 200);
    assert.deepEqual(patched.json().data.translations, {
      el: { name: 'Νέο όνομα', slug: `kafes-${product.slug}` },
    });
  });

  test('when a translation names a disabled locale or a field that is not translatable, then 400 names it', async () => {
    const product = await greekProduct();
    const patch = (translations: Json) =>
      t.app.inject({
        method: 'PATCH',
        url: `/rest/product/product/${product.id}`,
        headers: admin,
        payload: { translations },
      });
    const disabled = await patch({ de: { name: 'Kaffee' } });
    assert.equal(disabled.statusCode, 400);
    assert.match(disabled.json().error.message, /translations\.de/);
    const notTranslatable = await patch({ el: { sku: 'X' } });
    assert.equal(notTranslatable.statusCode, 400);
    assert.match(JSON.stringify(notTranslatable.json().error), /sku/);
    const after = (await get(`/rest/product/product/${product.id}?locale=el`)).json().data;
    assert.equal(after.name, `Καφές ${product.slug}`, 'nothing was written');
  });

  test('when two products take the same slug within a locale, then the second is 409', async () => {
    const first = await greekProduct();
    const res = await t.app.inject({
      method: 'POST',
      url: '/rest/product/product',
      headers: admin,
      payload: { name: 'Other', sku: unique('sku'), price: 1, translations: { el: { slug: `kafes-${first.slug}` } } },
    });
    assert.equal(res.statusCode, 409);
    assert.match(res.json().error.message, /translations\.el\.slug/);
  });

  test('when the missingTranslation=el filter is used, then only products lacking a Greek text are listed', async () => {
    const brand = unique('brand');
    const full = await greekProduct({ brand });
    const partial = await createProduct(t.app, { brand, description: 'x', translations: { el: { name: 'Μόνο όνομα' } } });
    const res = await get(`/rest/product/product?brand=${brand}&missingTranslation=el`, admin);
    assert.equal(res.statusCode, 200);
    const ids = (res.json().data as Json[]).map((p) => p.id);
    assert.ok(ids.includes(partial.id));
    assert.ok(!ids.includes(full.id));
  });

  test('when a product is read in el with its category, then the category answers in Greek too', async () => {
    const category = await createCategory(t.app, { translations: { el: { name: 'Ροφήματα' } } });
    const product = await greekProduct({ categoryId: category.id });
    const data = (await get(`/rest/product/product/${product.id}?locale=el&with=category`)).json().data;
    assert.equal(data.category.name, 'Ροφήματα');
  });

  test('when facets are asked in el, then category names answer in Greek and the answer says el', async () => {
    const brand = unique('brand');
    const category = await createCategory(t.app, { name: 'Drinks', translations: { el: { name: 'Ποτά' } } });
    await greekProduct({ brand, categoryId: category.id });
    const res = await get(`/rest/product/product/facets?brand=${brand}&locale=el`);
    assert.equal(res.headers['content-language'], 'el');
    assert.deepEqual(res.json().data.category, [{ id: category.id, name: 'Ποτά', count: 1 }]);
    const english = await get(`/rest/product/product/facets?brand=${brand}`);
    assert.equal(english.json().data.category[0].name, 'Drinks');
  });

  test('when el is removed from locales, then its texts are kept but no longer served', async () => {
    const product = await greekProduct();
    await setStoredSetting(t.database.db, 'locales', ['en']);
    try {
      const asked = await get(`/rest/product/product/${product.id}?locale=el`);
      assert.equal(asked.statusCode, 400);
      const browser = await get(`/rest/product/product/${product.id}`, { 'accept-language': 'el' });
      assert.equal(browser.headers['content-language'], 'en');
      assert.equal(browser.json().data.name, product.name);
      const kept = (await get(`/rest/product/product/${product.id}`, admin)).json().data;
      assert.equal(kept.translations.el.name, `Καφές ${product.slug}`);
    } finally {
      await setStoredSetting(t.database.db, 'locales', ['en', 'el']);
    }
  });

  test('when shipping methods are read in el, then their Greek names answer', async () => {
    const transport = await create(
      t.app,
      '/rest/checkout/transport',
      { name: 'Courier', price: 3, translations: { el: { name: 'Κούριερ' } } },
      await adminHeaders(t.app, [3]),
    );
    const list = (await get('/rest/checkout/transport?locale=el')).json().data as Json[];
    assert.equal(list.find((m) => m.id === transport.id)?.name, 'Κούριερ');
  });
});
