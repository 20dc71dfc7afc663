import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { body, startTestApp, type TestApp } from '../helpers/app.ts';
import { sql } from 'drizzle-orm';
import {
  adminHeaders,
  createCategory,
  createProduct,
  setStoredSetting,
  unique,
} from '../helpers/catalog-factories.ts';

// Catalog discovery through HTTP (docs/discovery.md): the category
// subtree filter and breadcrumbs, the stock and sale filters, search (every word, any order,
// case, accents, one typo, relevance) and the facet counts.

type Json = Record<string, unknown>;
type Product = Json & { id: number; name: string };

describe('catalog discovery', () => {
  let t: TestApp;
  let admin: Record<string, string>;

  before(async () => {
    t = await startTestApp();
    admin = await adminHeaders(t.app);
  });
  after(async () => t?.close());

  async function get(url: string, headers: Record<string, string> = {}) {
    const res = await t.app.inject({ method: 'GET', url, headers });
    assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
    return body<{ data: unknown; pagination?: { total: number } }>(res);
  }

  async function names(url: string, headers: Record<string, string> = {}): Promise<string[]> {
    return ((await get(url, headers)).data as Product[]).map((p) => p.name);
  }

  async function patch(path: string, payload: Json) {
    const res = await t.app.inject({ method: 'PATCH', url: path, headers: admin, payload });
    assert.equal(res.statusCode, 200, res.body);
  }

  test('when filtering by a parent category, then products of every category below it match; categories answer their path', async () => {
    const root = await createCategory(t.app, { name: 'Coffee' });
    const beans = await createCategory(t.app, { name: 'Beans', parentId: root.id });
    const arabica = await createCategory(t.app, { name: 'Arabica', parentId: beans.id });
    const other = await createCategory(t.app);
    const brand = unique('Tree');
    await createProduct(t.app, { name: 'In root', categoryId: root.id, brand });
    await createProduct(t.app, { name: 'In beans', categoryId: beans.id, brand });
    await createProduct(t.app, { name: 'In arabica', categoryId: arabica.id, brand });
    await createProduct(t.app, { name: 'Elsewhere', categoryId: other.id, brand });

    const url = (id: unknown) => `/rest/product/product?brand=${brand}&categoryId=${id}&sort=name`;
    assert.deepEqual(await names(url(root.id)), ['In arabica', 'In beans', 'In root']);
    assert.deepEqual(await names(url(beans.id)), ['In arabica', 'In beans']);
    assert.deepEqual(await names(url(arabica.id)), ['In arabica']);
    assert.deepEqual(await names(url(`${arabica.id},${other.id}`)), ['Elsewhere', 'In arabica']);

    const shown = (await get(`/rest/product/category/${arabica.id}`)).data as Json;
    assert.deepEqual(shown.path, [
      { id: root.id, name: 'Coffee', slug: root.slug },
      { id: beans.id, name: 'Beans', slug: beans.slug },
    ]);
    const listed = (await get(`/rest/product/category?parentId=${beans.id}`)).data as Json[];
    assert.deepEqual(
      listed.map((c) => c.path),
      [
        [
          { id: root.id, name: 'Coffee', slug: root.slug },
          { id: beans.id, name: 'Beans', slug: beans.slug },
        ],
      ],
    );
    assert.deepEqual(((await get(`/rest/product/category/${root.id}`)).data as Json).path, []);
  });

  test('when a subtree moves under another category, then the parent filter and its total follow at once', async () => {
    const a = await createCategory(t.app);
    const b = await createCategory(t.app);
    const child = await createCategory(t.app, { parentId: a.id });
    const brand = unique('Move');
    await createProduct(t.app, { categoryId: child.id, brand });
    const total = async (id: unknown) =>
      (await get(`/rest/product/product?brand=${brand}&categoryId=${id}`)).pagination!.total;
    assert.equal(await total(a.id), 1);
    assert.equal(await total(b.id), 0);
    await patch(`/rest/product/category/${child.id}`, { parentId: b.id });
    assert.equal(await total(a.id), 0);
    assert.equal(await total(b.id), 1);
  });

  test('when filtering by stockStatus, inStock and onSale, then only those products; a wrong value is 400', async () => {
    const brand = unique('Stock');
    await createProduct(t.app, { name: 'Empty', brand, stockQty: 0 });
    await createProduct(t.app, { name: 'Few', brand, stockQty: 2 });
    await createProduct(t.app, { name: 'Plenty', brand, stockQty: 50, price: 20 });
    const base = `/rest/product/product?brand=${brand}&sort=name`;
    assert.deepEqual(await names(`${base}&stockStatus=out_of_stock`), ['Empty']);
    assert.deepEqual(await names(`${base}&stockStatus=low_stock,out_of_stock`), ['Empty', 'Few']);
    assert.deepEqual(await names(`${base}&inStock=true`), ['Few', 'Plenty']);
    assert.deepEqual(await names(`${base}&inStock=false`), ['Empty']);
    assert.equal((await get(`${base}&stockStatus=out_of_stock`)).pagination!.total, 1);

    const plenty = ((await get(`${base}&stockStatus=in_stock`)).data as Product[])[0];
    assert.deepEqual(await names(`${base}&onSale=true`), []);
    await patch(`/rest/product/product/${plenty.id}`, { price: 15 });
    assert.deepEqual(await names(`${base}&onSale=true`), ['Plenty']);
    assert.deepEqual(await names(`${base}&onSale=false`), ['Empty', 'Few']);

    for (const bad of ['stockStatus=gone', 'inStock=maybe', 'onSale=yes']) {
      const res = await t.app.inject({ method: 'GET', url: `${base}&${bad}` });
      assert.equal(res.statusCode, 400, bad);
      assert.equal(res.json().error.code, 'VALIDATION_FAILED');
    }
  });

  test('when searching, then every word matches in any order, ignoring case and accents (Greek too), one typo tolerated', async () => {
    const brand = unique('Search');
    await createProduct(t.app, { name: 'Lavazza Espresso Crema', brand });
    await createProduct(t.app, { name: 'Ελληνικός Καφές', brand, description: 'Παραδοσιακός' });
    await createProduct(t.app, { name: 'Crème brûlée cup', brand });
    await createProduct(t.app, { name: 'Plain mug', brand, description: 'for espresso lovers' });
    const search = (q: string) =>
      names(`/rest/product/product?brand=${brand}&q=${encodeURIComponent(q)}&sort=name`);
    assert.deepEqual(await search('espresso lavazza'), ['Lavazza Espresso Crema']);
    assert.deepEqual(await search('LAVAZZA espresso'), ['Lavazza Espresso Crema']);
    assert.deepEqual(await search('καφες'), ['Ελληνικός Καφές']);
    assert.deepEqual(await search('ΚΑΦΈΣ ελληνικοσ'), ['Ελληνικός Καφές']);
    assert.deepEqual(await search('creme brulee'), ['Crème brûlée cup']);
    assert.deepEqual(await search('lavaza'), ['Lavazza Espresso Crema']);
    assert.deepEqual(await search('espreso lavazza'), ['Lavazza Espresso Crema']);
    assert.deepEqual(await search('espresso'), ['Lavazza Espresso Crema', 'Plain mug']);
    assert.deepEqual(await search('espresso teapot'), []);
    assert.deepEqual(await search('mgu'), [], 'a word under five letters must match as written');
    assert.deepEqual(await search('100%'), []);
  });

  test('when searching without sort, then the best match comes first; sort=relevance says so, another sort wins', async () => {
    const brand = unique('Rank');
    await createProduct(t.app, { name: 'Grinder', brand, price: 30, description: 'for espresso beans' });
    await createProduct(t.app, { name: 'Espresso beans', brand, price: 10 });
    await createProduct(t.app, { name: 'Espresso', brand, price: 20 });
    const base = `/rest/product/product?brand=${brand}&q=espresso`;
    const ranked = await names(base);
    assert.equal(ranked[2], 'Grinder', `name matches before description matches: ${ranked}`);
    assert.deepEqual(await names(`${base}&sort=relevance`), ranked);
    assert.deepEqual(await names(`${base}&sort=-price`), ['Grinder', 'Espresso', 'Espresso beans']);
    const item = (await get(`/rest/product/product/item?brand=${brand}&q=espresso`)).data as Product;
    assert.equal(item.name, ranked[0]);
  });

  test('when the same search is asked again, then the same answer; a rename, a price change or a deactivation shows at once', async () => {
    const brand = unique('Again');
    const a = await createProduct(t.app, { name: 'Moka pot small', brand, price: 25 });
    await createProduct(t.app, { name: 'Moka pot large', brand, price: 35 });
    const c = await createProduct(t.app, { name: 'Kettle', brand, price: 15 });
    const url = `/rest/product/product?brand=${brand}&q=moka&limit=1`;
    const raw = async (u: string) => {
      const res = await t.app.inject({ method: 'GET', url: u });
      assert.equal(res.statusCode, 200, res.body);
      return JSON.parse(res.body) as { data: Product[]; pagination: { total: number } };
    };
    const first = await raw(url);
    assert.deepEqual(await raw(url), first, 'a repeated search answers the same body');
    assert.deepEqual(await raw(`${url}&page=2`), await raw(`${url}&page=2`));
    assert.equal(first.pagination.total, 2);

    await patch(`/rest/product/product/${c.id}`, { name: 'Moka kettle' });
    assert.equal((await raw(url)).pagination.total, 3, 'a renamed product is found by the next search');
    const byPrice = `/rest/product/product?brand=${brand}&q=moka&sort=price`;
    assert.deepEqual(await names(byPrice), ['Moka kettle', 'Moka pot small', 'Moka pot large']);
    await patch(`/rest/product/product/${a.id}`, { price: 45 });
    // Another page of the same search counts the new total first; the price order must still follow.
    assert.equal((await raw(url)).pagination.total, 3);
    assert.deepEqual(await names(byPrice), ['Moka kettle', 'Moka pot large', 'Moka pot small']);
    await patch(`/rest/product/product/${c.id}`, { active: false });
    assert.deepEqual(await names(byPrice), ['Moka pot large', 'Moka pot small'], 'hidden at once');

    // A lowered page-size ceiling applies to a remembered search as to a new one.
    const unsized = `/rest/product/product?brand=${brand}&q=moka`;
    assert.equal((await raw(unsized)).data.length, 2);
    assert.equal((await raw(unsized)).data.length, 2);
    await setStoredSetting(t.app.db, 'rest_max_page_size', 1);
    try {
      const clamped = await raw(`${unsized}&limit=15`);
      assert.deepEqual([clamped.data.length, clamped.pagination.total], [1, 2]);
    } finally {
      await t.app.db.execute(sql`delete from setting where key = 'rest_max_page_size'`);
    }
  });

  test('when asking for facets, then counts per brand, category, price and stock, each ignoring only its own filter', async () => {
    const tag = unique('facet');
    const cat = await createCategory(t.app);
    const sub = await createCategory(t.app, { parentId: cat.id });
    const brandA = `${tag}-A`;
    const brandB = `${tag}-B`;
    await createProduct(t.app, {
      name: `${tag} one`,
      brand: brandA,
      categoryId: cat.id,
      price: 10,
      stockQty: 3,
    });
    await createProduct(t.app, {
      name: `${tag} two`,
      brand: brandA,
      categoryId: sub.id,
      price: 25.5,
      stockQty: 0,
    });
    await createProduct(t.app, {
      name: `${tag} three`,
      brand: brandB,
      categoryId: sub.id,
      price: 40,
      stockQty: 9,
    });
    await createProduct(t.app, {
      name: `${tag} hidden`,
      brand: brandB,
      categoryId: sub.id,
      price: 99,
      active: false,
    });

    const facets = async (query: string, headers: Record<string, string> = {}) =>
      (await get(`/rest/product/product/facets?q=${tag}${query}`, headers)).data as Json;

    const all = await facets('');
    assert.deepEqual(all.brand, [
      { value: brandA, count: 2 },
      { value: brandB, count: 1 },
    ]);
    assert.deepEqual(all.category, [
      { id: sub.id, name: sub.name, count: 2 },
      { id: cat.id, name: cat.name, count: 1 },
    ]);
    assert.deepEqual(all.price, { min: 10, max: 40 });
    assert.deepEqual(all.inStock, { count: 2 });
    assert.deepEqual(all.options, {});

    const chosen = await facets(`&brand=${brandA}`);
    assert.deepEqual(chosen.brand, all.brand, 'choosing a brand keeps the other brands');
    assert.deepEqual(chosen.category, [
      { id: cat.id, name: cat.name, count: 1 },
      { id: sub.id, name: sub.name, count: 1 },
    ]);
    assert.deepEqual(chosen.price, { min: 10, max: 25.5 });
    assert.deepEqual(chosen.inStock, { count: 1 });

    const inStock = await facets(`&inStock=true&categoryId=${sub.id}`);
    assert.deepEqual(inStock.brand, [{ value: brandB, count: 1 }]);
    assert.deepEqual(inStock.inStock, { count: 1 }, 'the stock count ignores inStock itself');
    assert.deepEqual(inStock.price, { min: 40, max: 40 });

    const backOffice = await facets('', admin);
    assert.deepEqual(backOffice.brand, [
      { value: brandA, count: 2 },
      { value: brandB, count: 2 },
    ]);
    assert.deepEqual(backOffice.price, { min: 10, max: 99 });

    const none = await facets('&brand=nobody');
    assert.deepEqual(none.price, { min: null, max: null });
    assert.deepEqual(none.inStock, { count: 0 });
    const bad = await t.app.inject({ method: 'GET', url: '/rest/product/product/facets?inStock=perhaps' });
    assert.equal(bad.statusCode, 400);
  });
  test('when the same facets are asked again, then a sell-out, a new brand, a category rename or a variant switched off shows at once', async () => {
    const tag = unique('again');
    const cat = await createCategory(t.app);
    const one = await createProduct(t.app, {
      name: `${tag} one`,
      brand: `${tag}-A`,
      categoryId: cat.id,
      stockQty: 1,
    });
    const shirt = await createProduct(t.app, {
      name: `${tag} shirt`,
      brand: `${tag}-A`,
      categoryId: cat.id,
      stockQty: undefined,
      options: [{ name: 'Size', values: ['S', 'M'] }],
      variants: [
        { sku: `${tag}-S`, options: { Size: 'S' }, stockQty: 2 },
        { sku: `${tag}-M`, options: { Size: 'M' }, stockQty: 2 },
      ],
    });
    const url = `/rest/product/product/facets?q=${tag}`;
    const facets = async () => (await get(url)).data as Json;
    const first = await facets();
    assert.deepEqual(await facets(), first, 'the same facets again');
    assert.deepEqual(first.inStock, { count: 2 });

    const oneVariant = ((await get(`/rest/product/variant?productId=${one.id}`, admin)).data as Json[])[0];
    await patch(`/rest/product/variant/${oneVariant.id}`, { stockQty: 0 });
    assert.deepEqual((await facets()).inStock, { count: 1 }, 'a product sold out leaves the stock count');

    await patch(`/rest/product/product/${one.id}`, { brand: `${tag}-B` });
    assert.deepEqual((await facets()).brand, [
      { value: `${tag}-A`, count: 1 },
      { value: `${tag}-B`, count: 1 },
    ]);

    await patch(`/rest/product/category/${cat.id}`, { name: `${tag} renamed` });
    assert.deepEqual((await facets()).category, [{ id: cat.id, name: `${tag} renamed`, count: 2 }]);

    const medium = ((await get(`/rest/product/variant?productId=${shirt.id}`, admin)).data as Json[]).find(
      (v) => v.sku === `${tag}-M`,
    )!;
    await patch(`/rest/product/variant/${medium.id}`, { active: false });
    assert.deepEqual((await facets()).options, { Size: [{ value: 'S', count: 1 }] });
  });

  test('when filtering by option.<Name>, then products with an active variant of those values; the options facet counts the others', async () => {
    const tag = unique('opt');
    const shirt = (name: string, variants: { Size: string; Colour: string; active?: boolean }[]) =>
      createProduct(t.app, {
        name: `${tag} ${name}`,
        options: [
          { name: 'Size', values: ['S', 'M', 'L'] },
          { name: 'Colour', values: ['Red', 'Blue'] },
        ],
        variants: variants.map(({ active, ...options }, i) => ({
          sku: unique(`${tag}-${name}-${i}`),
          options,
          stockQty: 3,
          ...(active === false ? { active: false } : {}),
        })),
        stockQty: undefined,
      });
    await shirt('Alpha', [
      { Size: 'S', Colour: 'Red' },
      { Size: 'M', Colour: 'Red' },
    ]);
    await shirt('Beta', [
      { Size: 'M', Colour: 'Blue' },
      { Size: 'L', Colour: 'Blue', active: false },
    ]);
    await shirt('Gamma', [{ Size: 'L', Colour: 'Red' }]);
    const base = `/rest/product/product?q=${tag}&sort=name`;
    assert.deepEqual(await names(`${base}&option.Size=M`), [`${tag} Alpha`, `${tag} Beta`]);
    assert.deepEqual(
      await names(`${base}&option.Size=L`),
      [`${tag} Gamma`],
      'inactive variants do not count',
    );
    assert.deepEqual(await names(`${base}&option.Size=S,L`), [`${tag} Alpha`, `${tag} Gamma`]);
    assert.deepEqual(await names(`${base}&option.Size=M&option.Colour=Red`), [`${tag} Alpha`]);
    assert.equal((await get(`${base}&option.Colour=Blue`)).pagination!.total, 1);

    const facets = (await get(`/rest/product/product/facets?q=${tag}&option.Size=M`)).data as Json;
    assert.deepEqual(facets.options, {
      Colour: [
        { value: 'Blue', count: 1 },
        { value: 'Red', count: 1 },
      ],
      Size: [
        { value: 'M', count: 2 },
        { value: 'L', count: 1 },
        { value: 'S', count: 1 },
      ],
    });
    assert.deepEqual(facets.inStock, { count: 2 });
  });
});
