import assert from 'node:assert/strict';
import { get } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { ROOT } from '../auth/auth-helpers.ts';
import { createTestDatabase, testEngine } from '../helpers/database.ts';
import { type ServerProcess, startServer, tempDir } from '../helpers/hardening/server.ts';
import { seedOrders } from '../helpers/order-seed.ts';

// The order export streams: 100,000 orders go out as CSV while the service process (started as
// `npm start` starts it, with its memory flags) grows its resident memory by less than 50 MB. The
// CSV itself is about 14 MB; a service that built it in memory would hold it several times over
// (rows, strings, the body buffer).

const ORDERS = 100_000;

/** Reads the whole answer, counting its lines and bytes, and calls `onChunk` as data arrives. */
function download(url: string, token: string, onChunk: () => void) {
  return new Promise<{ status: number; lines: number; bytes: number }>((resolve, reject) => {
    get(url, { headers: { authorization: `Bearer ${token}` } }, (res) => {
      let lines = 0;
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines += 1;
        onChunk();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, lines, bytes }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

describe('order export memory', () => {
  let server: ServerProcess;
  const dir = tempDir('shop-export-');
  let destroy: () => Promise<void> = async () => {};

  before(async () => {
    // PGlite allows one process per data directory: seed first, then start the service on it.
    const testDb = await createTestDatabase(testEngine === 'pglite' ? { dataDir: dir.path } : {});
    await seedOrders(testDb.database.db, ORDERS);
    if (testEngine === 'pglite') await testDb.destroy();
    else destroy = () => testDb.destroy();
    // @ts-expect-error: a plain ES module without type declarations
    const build = await import('../../scripts/build.mjs');
    server = await startServer({
      dataDir: dir.path,
      databaseUrl: testDb.url,
      config: { staticUsers: [ROOT] },
      nodeArgs: build.serviceNodeFlags(),
    });
  });
  after(async () => {
    await server?.stop();
    await destroy();
    dir.remove();
  });

  test(`when ${ORDERS.toLocaleString('en')} orders are exported, then every one is a line and the service's RSS grows by less than 50 MB`, async () => {
    const login = await fetch(`${server.base}/rest/auth/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: ROOT.username, password: ROOT.password }),
    });
    const token = ((await login.json()) as { access_token: string }).access_token;
    // A first, small export: the code and the statement are loaded before the baseline is taken.
    const warm = await download(`${server.base}/rest/report/orders?number=SO-000001`, token, () => {});
    assert.equal(warm.lines, 2);
    const baseline = server.rss();
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, server.rss());
    }, 20);
    try {
      const res = await download(`${server.base}/rest/report/orders`, token, () => {
        peak = Math.max(peak, server.rss());
      });
      assert.equal(res.status, 200);
      assert.equal(res.lines, ORDERS + 1, 'a header and one line per order');
      const growth = peak - baseline;
      console.log(
        `# export of ${ORDERS} orders: ${(res.bytes / 2 ** 20).toFixed(1)} MB of CSV; service RSS ${baseline} → peak ${peak} MB (+${growth})`,
      );
      assert.ok(growth < 50, `RSS grew by ${growth} MB`);
    } finally {
      clearInterval(sampler);
    }
  });
});
