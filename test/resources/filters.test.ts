import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createTestDatabase } from '../helpers/database.ts';
import { adminHeaders, createCategory, createProduct } from '../helpers/catalog-factories.ts';

type Json = Record<string, unknown>;

describe('filters, ranges, search, sort, relations and item', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let root: Json;
  let child: Json;
  let hidden: Json;
  const ids: Record<string, number> = {};

  /** Statements the service ran, apart from its own background reads (the session revocation feed). */
  let statementsRun = 0;

  before(async () => {
    const testDatabase = await createTestDatabase({
      onQuery: (text) => {
        if (!text.includes('auth_session_revocation')) statementsRun++;
      },
    });
    // The statements of the read path itself: the answer cache would answer a repeated URL with none.
    t = await startTestApp({ testDatabase, config: { cache: { enabled: false } } });
    admin = await adminHeaders(t.app);
    root = await createCategory(t.app, { name: 'Drinks' });
    child = await createCategory(t.app, { name: 'Coffee', parentId: root.id });
    hidden = await createCategory(t.app, { name: 'Hidden', active: false });
    const specs: [string, Json][] = [
      [
        'espresso',
        {
          name: 'Espresso Beans',
          sku: 'F-ESP',
          brand: 'Lavazza',
          price: 12.5,
          categoryId: child.id,
          description: 'Dark roast 100% arabica',
        },
      ],
      ['decaf', { name: 'Decaf Beans', sku: 'F-DEC', brand: 'Lavazza', price: 9.99, categoryId: child.id }],
      ['mug', { name: 'Mug', sku: 'F-MUG', brand: 'Acme', price: 19.99, categoryId: root.id }],
      ['tea', { name: 'Green tea', sku: 'F-TEA', brand: 'Acme', price: 5, categoryId: hidden.id }],
      [
        'off',
        {
          name: 'Old espresso',
          sku: 'F-OFF',
          brand: 'Lavazza',
          price: 7,
          active: false,
          categoryId: child.id,
        },
      ],
    ];
    for (const [key, spec] of specs) ids[key] = (await createProduct(t.app, spec)).id as number;
  });
  after(async () => {
    await t.close();
    await t.testDatabase.destroy();
  });

  const list = async (query: string, headers: Record<string, string> = {}) => {
    const res = await t.app.inject({ method: 'GET', url: `/rest/product/product?${query}`, headers });
    assert.equal(res.statusCode, 200, `${query}: ${res.body}`);
    return res.json() as { data: Json[]; pagination: Json };
  };
  const skus = (body: { data: Json[] }) => body.data.map((p) => p.sku);

  test('when filtering by equality and any-of, then only matching products (inactive ones never for guests)', async () => {
    assert.deepEqual(skus(await list('brand=Lavazza')), ['F-ESP', 'F-DEC']);
    assert.deepEqual(skus(await list('brand=Lavazza,Acme&sort=price')), ['F-TEA', 'F-DEC', 'F-ESP', 'F-MUG']);
    assert.deepEqual(skus(await list(`categoryId=${child.id}`)), ['F-ESP', 'F-DEC']);
    assert.deepEqual(skus(await list(`id=${ids.mug},${ids.tea}`)), ['F-MUG', 'F-TEA']);
    assert.deepEqual(skus(await list('sku=F-MUG')), ['F-MUG']);
    assert.deepEqual(
      skus(await list('brand=Lavazza', admin)),
      ['F-ESP', 'F-DEC', 'F-OFF'],
      'admins see inactive',
    );
    assert.deepEqual(skus(await list('active=false', admin)), ['F-OFF']);
    assert.deepEqual(skus(await list('active=false')), [], 'a guest cannot ask for inactive products');
  });

  test('when filtering price ranges with decimals, then they compare in cents', async () => {
    assert.deepEqual(skus(await list('price[gte]=9.99&price[lte]=12.5&sort=price')), ['F-DEC', 'F-ESP']);
    assert.deepEqual(skus(await list('price[gt]=9.99&price[lt]=19.99')), ['F-ESP']);
    assert.equal((await list('price[gte]=19.99')).data[0].price, 19.99);
    const bad = await t.app.inject({ method: 'GET', url: '/rest/product/product?price[gte]=1.999' });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().error.details[0].field, 'price[gte]');
  });

  test('when searching with q, then name, sku and description match case-insensitively, wildcards literal', async () => {
    // Without sort, q orders by relevance (test/catalog/discovery.test.ts); here the ids decide.
    assert.deepEqual(skus(await list('q=BEANS&sort=id')), ['F-ESP', 'F-DEC']);
    assert.deepEqual(skus(await list('q=f-mu')), ['F-MUG']);
    assert.deepEqual(skus(await list('q=100%25')), ['F-ESP'], '"100%" is literal text');
    assert.deepEqual(skus(await list('q=_')), [], '"_" is not a wildcard');
    assert.deepEqual(skus(await list('q=espresso')), ['F-ESP'], 'inactive products are not found by guests');
  });

  test('when sorting by several fields, then the order follows them; unknown fields are 400', async () => {
    assert.deepEqual(skus(await list('sort=-price')), ['F-MUG', 'F-ESP', 'F-DEC', 'F-TEA']);
    assert.deepEqual(skus(await list('sort=name')), ['F-DEC', 'F-ESP', 'F-TEA', 'F-MUG']);
    assert.deepEqual(skus(await list('sort=-createdAt')).at(-1), 'F-ESP', 'guests may sort by createdAt');
    const res = await t.app.inject({ method: 'GET', url: '/rest/product/product?sort=-price,costPrice' });
    assert.equal(res.statusCode, 400);
    assert.match(res.json().error.message, /costPrice/);
  });

  test('when with names relations, then they are embedded, nested with dots, unknown or hidden ones left out', async () => {
    const body = await list(`with=category.parent,images,nothing,category.secret&sku=F-ESP`);
    const product = body.data[0];
    assert.equal((product.category as Json).id, child.id);
    assert.equal(((product.category as Json).parent as Json).id, root.id);
    assert.equal(((product.category as Json).parent as Json).parent, undefined, 'not requested');
    assert.equal(product.nothing, undefined);
    const tea = (await list(`sku=F-TEA&with=category`)).data[0];
    assert.equal(tea.category, null, 'an inactive category is not shown to guests');
    const teaAdmin = (await list(`sku=F-TEA&with=category`, admin)).data[0];
    assert.equal((teaAdmin.category as Json).id, hidden.id);
    const plain = (await list('sku=F-ESP')).data[0];
    assert.equal('category' in plain, false, 'relations only when asked');
  });

  test('when relations are embedded in a page, then the page statement renders them, never one query per row', async () => {
    for (let i = 0; i < 20; i++)
      await createProduct(t.app, { categoryId: i % 2 ? child.id : root.id, brand: 'Many' });
    const statements = async (query: string) => {
      await list(query); // warms the cached total
      const before = statementsRun;
      await list(query);
      return statementsRun - before;
    };
    const plain = await statements('brand=Many&limit=20');
    assert.equal(plain, 1, 'settings, versions and page in one statement');
    assert.equal(await statements('brand=Many&limit=20&with=category'), plain, 'the category in the page');
    // A category's parent and children are rows of its own table: in the page too, through an alias.
    assert.equal(await statements('brand=Many&limit=20&with=category.parent,category.children'), plain);
  });

  test('when a category lists its children, then the tree loads with one relation query', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/rest/product/category?parentId=null&with=children.children`,
    });
    assert.equal(res.statusCode, 200);
    const roots = res.json().data as Json[];
    const drinks = roots.find((c) => c.id === root.id)!;
    assert.deepEqual(
      (drinks.children as Json[]).map((c) => c.id),
      [child.id],
    );
    assert.equal(
      roots.some((c) => c.id === hidden.id),
      false,
    );
  });

  test('when item is asked, then the first match of filters, search and sort; 404 when none', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/rest/product/product/item?brand=Lavazza&sort=-price',
    });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(Object.keys(res.json()).sort(), ['data', 'success']);
    assert.equal(res.json().data.sku, 'F-ESP');
    const bySlug = await t.app.inject({
      method: 'GET',
      url: '/rest/product/product/item?slug=mug&with=category',
    });
    assert.equal(bySlug.json().data.id, ids.mug);
    assert.equal(bySlug.json().data.category.id, root.id);
    const none = await t.app.inject({ method: 'GET', url: '/rest/product/product/item?sku=F-OFF' });
    assert.equal(none.statusCode, 404);
    assert.equal(none.json().error.code, 'NOT_FOUND');
  });

  test('when a date range is not an ISO date, then 400 naming the field (a valid one filters)', async () => {
    const statuses: string[] = [];
    for (const value of ['2999-01-01', '12345', '-1', 'yesterday']) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/rest/product/product?createdAt[gt]=${value}`,
        headers: admin,
      });
      statuses.push(
        `${value} ${res.statusCode} ${res.statusCode === 200 ? res.json().data.length : res.json().error.details?.[0]?.field}`,
      );
    }
    assert.deepEqual(statuses, [
      '2999-01-01 200 0',
      '12345 400 createdAt[gt]',
      '-1 400 createdAt[gt]',
      'yesterday 400 createdAt[gt]',
    ]);
  });

  test('when one entity is shown by id, then no pagination; hidden or absent ids are 404; bad ids 400', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/rest/product/product/${ids.mug}` });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(Object.keys(res.json()).sort(), ['data', 'success']);
    assert.equal(res.json().data.sku, 'F-MUG');
    for (const [url, status] of [
      [`/rest/product/product/${ids.off}`, 404],
      ['/rest/product/product/999999', 404],
      ['/rest/product/product/0', 400],
      ['/rest/product/product/abc', 400],
      ['/rest/product/product/99999999999', 400],
    ] as const) {
      const r = await t.app.inject({ method: 'GET', url });
      assert.equal(r.statusCode, status, url);
    }
    const asAdmin = await t.app.inject({
      method: 'GET',
      url: `/rest/product/product/${ids.off}`,
      headers: admin,
    });
    assert.equal(asAdmin.statusCode, 200);
  });
});
