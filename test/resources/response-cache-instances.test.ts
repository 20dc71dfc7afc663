import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { type App, buildApp } from '../../src/app.ts';
import { type Database, openDatabase, queryRows } from '../../src/db/client.ts';
import { LISTENER_APPLICATION_NAME } from '../../src/db/listen.ts';
import { startTestApp, type TestApp, testConfig } from '../helpers/app.ts';
import { adminHeaders, createCategory, createProduct } from '../helpers/catalog-factories.ts';
import { testEngine } from '../helpers/database.ts';

// Two instances on one PostgreSQL database (docs/performance.md, "The shared cache"): a write
// on one drops the other's kept answers through LISTEN/NOTIFY, and an instance whose listening
// connection is lost keeps nothing until it listens again.

describe('the answer cache across two instances', { skip: testEngine !== 'postgres' }, () => {
  let a: TestApp;
  let bDatabase: Database;
  let b: App;
  let admin: Record<string, string>;

  before(async () => {
    a = await startTestApp();
    bDatabase = await openDatabase({ databaseUrl: a.testDatabase.url, dataDir: '', poolSize: 5 });
    b = await buildApp({ config: testConfig(), database: bDatabase, logger: false });
    await b.ready();
    admin = await adminHeaders(a.app);
  });
  after(async () => {
    await b.close();
    await bDatabase.close();
    await a.close();
  });

  const onB = async (url: string) => {
    const res = await b.inject({ method: 'GET', url });
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data;
  };
  const patchOnA = async (url: string, payload: Record<string, unknown>) => {
    const res = await a.app.inject({ method: 'PATCH', url, headers: admin, payload });
    assert.equal(res.statusCode, 200, res.body);
  };
  /** Reads on B until `read` answers `expected` (a second at most); answers the last value. */
  const untilOnB = async (read: () => Promise<unknown>, expected: unknown) => {
    const deadline = Date.now() + 1000;
    let value = await read();
    while (value !== expected && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      value = await read();
    }
    return value;
  };
  const cacheOfB = () => {
    const cache = b.responseCache;
    assert.ok(cache, 'the cache is on');
    return cache;
  };

  test('when one instance changes a price, then the other answers the new price', async () => {
    const product = await createProduct(a.app, { price: 10 });
    const page = `/rest/product/product/${product.id}`;
    await onB(page);
    await onB(page); // kept from the second ask
    const hits = cacheOfB().answers.hits;
    assert.equal((await onB(page)).price, 10);
    assert.equal(cacheOfB().answers.hits, hits + 1, 'the third read is a hit');
    await patchOnA(page, { price: 11 });
    assert.equal(await untilOnB(async () => (await onB(page)).price, 11), 11);
  });

  test('when one instance renames a category, then the other shows the new name', async () => {
    const category = await createCategory(a.app, { name: 'Old name' });
    const list = `/rest/product/category?id=${category.id}`;
    await onB(list);
    await onB(list); // kept from the second ask
    await patchOnA(`/rest/product/category/${category.id}`, { name: 'New name' });
    assert.equal(await untilOnB(async () => (await onB(list))[0].name, 'New name'), 'New name');
  });

  test('when one instance changes a setting, then the other’s storefront configuration follows', async () => {
    const tracking = async () => (await onB('/rest/v1/storefront-config')).priceTracking.enabled;
    assert.equal(await tracking(), true);
    assert.equal(await tracking(), true); // kept from the second ask
    const put = await a.app.inject({
      method: 'PUT',
      url: '/rest/system/setting/price_tracking_enabled',
      headers: admin,
      payload: { value: false },
    });
    assert.equal(put.statusCode, 200);
    assert.equal(await untilOnB(tracking, false), false);
  });

  test('when the listening connection is lost, then nothing kept is served and a write meanwhile shows once it is back', async () => {
    const product = await createProduct(a.app, { price: 20 });
    const page = `/rest/product/product/${product.id}`;
    await onB(page);
    await onB(page); // kept from the second ask
    assert.ok(cacheOfB().answers.size > 0);
    await queryRows(
      a.database.db,
      sql`select pg_terminate_backend(pid) from pg_stat_activity
          where application_name = ${LISTENER_APPLICATION_NAME} and datname = current_database()`,
    );
    await untilOnB(async () => cacheOfB().versions.live, false);
    assert.equal(cacheOfB().versions.live, false);
    assert.equal(cacheOfB().answers.size, 0, 'emptied when the connection was lost');
    // Its notification goes nowhere: B is not listening.
    await patchOnA(page, { price: 21 });
    await untilOnB(async () => cacheOfB().versions.live, true);
    assert.equal(cacheOfB().versions.live, true, 'listening again');
    assert.equal((await onB(page)).price, 21);
  });
});
