import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { getTableName, sql } from 'drizzle-orm';
import { queryRows } from '../../src/db/client.ts';
import { categoryResource } from '../../src/modules/catalog/category.resource.ts';
import { giftResource } from '../../src/modules/promotions/promotions.resources.ts';
import { transportResource } from '../../src/modules/shipping/shipping.resource.ts';
import { productResource } from '../../src/modules/catalog/product.resource.ts';
import { reelResource, sliderGroupResource, sliderResource } from '../../src/modules/cms/cms.resources.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { adminHeaders, createProduct, insertProducts } from '../helpers/catalog-factories.ts';

// List totals are cached per table version; these tests change the table every way a shop
// can (API, direct SQL as another instance would, stock updates) and check totals stay exact.

describe('cached list totals stay exact', () => {
  let t: TestApp;
  let admin: Record<string, string>;

  before(async () => {
    // Writes made here in SQL reach the answer cache as another instance's would, by notification
    // (test/resources/response-cache*.test.ts): these tests read the path underneath it.
    t = await startTestApp({ config: { cache: { enabled: false } } });
    admin = await adminHeaders(t.app);
    await insertProducts(t.database.db, 40);
  });
  after(() => t.close());

  const total = async (query = '', headers: Record<string, string> = {}) => {
    const res = await t.app.inject({ method: 'GET', url: `/rest/product/product?${query}`, headers });
    assert.equal(res.statusCode, 200, res.body);
    return res.json().pagination.total as number;
  };
  const version = async () =>
    (
      await queryRows<{ v: string }>(
        t.database.db,
        sql`select coalesce(max(version), 0)::text as v from resource_version where name = 'product'`,
      )
    )[0].v;

  test('when products are added through the API or directly in SQL, then the next total counts them', async () => {
    const start = await total();
    assert.equal(await total(), start, 'a repeated read is served from the cache');
    await createProduct(t.app);
    assert.equal(await total(), start + 1);
    await insertProducts(t.database.db, 3);
    assert.equal(await total(), start + 4, 'a write from elsewhere (direct SQL) invalidates too');
    await t.database.db.execute(
      sql`update product set active = false where id in (select id from product order by id limit 2)`,
    );
    assert.equal(await total(), start + 2);
    assert.equal(await total('', admin), start + 4, 'admins count inactive ones');
    await t.database.db.execute(sql`delete from product where id = (select max(id) from product)`);
    assert.equal(await total('', admin), start + 3);
  });

  test('when filtered totals are cached, then each filter has its own exact total', async () => {
    const cheap = await total('price[lt]=1.10');
    assert.equal(await total('price[lt]=1.10'), cheap);
    await createProduct(t.app, { price: 0.5 });
    assert.equal(await total('price[lt]=1.10'), cheap + 1);
    await t.database.db.execute(sql`update product set price = 99999 where price = 50`);
    assert.equal(await total('price[lt]=1.10'), cheap);
    assert.equal(await total('q=Bulk 1'), await total('q=bulk 1'), 'search is part of the key');
  });

  test('when one transaction imports products in several statements, then the version moves once, at commit, and the totals count every write', async () => {
    const versionsSize = async () =>
      Number(
        (
          await queryRows<{ bytes: string }>(
            t.database.db,
            sql`select pg_relation_size('resource_version')::text as bytes`,
          )
        )[0].bytes,
      );
    const start = await total();
    const before = await version();
    const sizeBefore = await versionsSize();
    // 2,000 products: each one's plain variant rolls up onto it, a row-level bump per product.
    await t.database.db.transaction(async (tx) => {
      await insertProducts(tx, 2000);
      await tx.execute(sql`update product set active = false where id = (select max(id) from product)`);
    });
    assert.notEqual(await version(), before, 'the commit moved the version');
    assert.equal(await total(), start + 1999);
    assert.ok(
      (await versionsSize()) <= sizeBefore + 8192,
      `resource_version grew from ${sizeBefore} to ${await versionsSize()} bytes for one transaction`,
    );
  });

  test('when only stock changes (checkout), then the version stays and totals stay right', async () => {
    const before = await version();
    const start = await total();
    await t.database.db.execute(sql`update product set stock_qty = stock_qty + 1`);
    assert.equal(await version(), before, 'stock updates do not invalidate cached totals');
    assert.equal(await total(), start);
    const low = await total('stockQty[lte]=3', admin);
    await t.database.db.execute(
      sql`update product set stock_qty = 0 where id = (select min(id) from product where stock_qty > 3)`,
    );
    assert.equal(await total('stockQty[lte]=3', admin), low + 1, 'totals filtered on stock are never cached');
  });

  test('when a cached resource has filterable, searchable or visibility columns, then its trigger covers them', async () => {
    for (const resource of [
      productResource,
      categoryResource,
      transportResource,
      giftResource,
      reelResource,
      sliderGroupResource,
      sliderResource,
    ]) {
      const table = getTableName(resource.def.table);
      const rows = await queryRows<{ name: string }>(
        t.database.db,
        sql`select a.attname as name from pg_trigger tg
            join pg_class c on c.oid = tg.tgrelid
            join pg_attribute a on a.attrelid = c.oid and a.attnum > 0
              -- No column list: an update of any column bumps it.
              and (a.attnum = any(tg.tgattr::int2[]) or cardinality(tg.tgattr::int2[]) = 0)
            where c.relname = ${table} and tg.tgname = ${`${table}_version`}`,
      );
      const covered = new Set(rows.map((r) => r.name));
      const needed = resource.fields
        .filter((f) => f.column && !f.volatile && (f.filter || f.search || f.name === 'active'))
        .map((f) => f.column!.name);
      for (const column of needed) assert.ok(covered.has(column), `${table}.${column} must bump the version`);
    }
  });
});
