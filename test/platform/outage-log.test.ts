import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { type App, buildApp, loggerOptions } from '../../src/app.ts';
import { type Database, openDatabase } from '../../src/db/client.ts';
import { testConfig } from '../helpers/app.ts';
import { createTestDatabase, type TestDatabase, testEngine } from '../helpers/database.ts';
import { type FaultProxy, startProxy } from '../helpers/hardening/proxy.ts';

// A database outage answers every request 503; the log gets the first failure with its stack
// and then one count line, not a stack per request. The app reaches its PostgreSQL database
// through a proxy that then refuses connections; PGlite, embedded, has no connection to lose.

interface LogLine {
  level: number;
  msg: string;
  err?: { stack?: string };
  count?: number;
}

describe('database outage log', {
  skip: testEngine === 'pglite' && 'PostgreSQL only: PGlite has no connection to lose',
}, () => {
  let testDatabase: TestDatabase;
  let database: Database;
  let proxy: FaultProxy | undefined;
  let app: App;
  const lines: LogLine[] = [];

  before(async () => {
    testDatabase = await createTestDatabase();
    database = testDatabase.database;
    if (testDatabase.url) {
      const url = new URL(testDatabase.url);
      proxy = await startProxy(Number(url.port || 5432), url.hostname);
      url.port = String(proxy.port);
      url.hostname = '127.0.0.1';
      database = await openDatabase({
        databaseUrl: url.toString(),
        dataDir: '',
        poolSize: 4,
        timeouts: { connectMs: 500, queryMs: 1_000, statementMs: 1_000 },
      });
    }
    const stream = { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) };
    // Every request reaches the database: kept answers would be served for the moment the cache
    // takes to learn that its listener is cut.
    app = await buildApp({
      config: testConfig({ cache: { enabled: false } }),
      database,
      logger: loggerOptions('info', stream),
    });
    await app.ready();
  });
  after(async () => {
    await app.close();
    if (proxy) {
      await database.close();
      await proxy.close();
    }
    await testDatabase.destroy().catch(() => {});
  });

  const stacks = () => lines.filter((l) => l.err?.stack !== undefined);

  test('when 50 requests fail while the database is unreachable, then one stack is logged and the rest are counted', async () => {
    assert.equal((await app.inject({ url: '/rest/product/product?limit=1' })).statusCode, 200);
    if (!proxy) throw new Error('a PostgreSQL test database has a URL');
    proxy.mode = 'refuse';
    proxy.cutAll();

    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        app.inject({ url: i % 10 === 0 ? '/health/ready' : '/rest/product/product?limit=1' }),
      ),
    );
    assert.deepEqual(new Set(answers.map((a) => a.statusCode)), new Set([503]));
    assert.equal(answers[0].json().error.code, 'SERVICE_UNAVAILABLE');
    const failures = lines.filter((l) => l.msg === 'database unavailable');
    assert.equal(failures.length, 1, 'one line for the first failure');
    assert.equal(stacks().length, 1, 'one stack, not 50');
    assert.ok(lines.filter((l) => l.msg === 'request').length >= 50, 'every request still has its line');

    // The database comes back: the revocation poll (every 250 ms) reads it and ends the outage.
    proxy.mode = 'pass';
    const deadline = Date.now() + 5_000;
    while (!lines.some((l) => l.msg === 'database available again') && Date.now() < deadline) await sleep(50);
    const summary = lines.find((l) => /more database-unavailable errors in the last \d+ s$/.test(l.msg));
    assert.ok(summary, 'a count line when the database is back');
    assert.ok((summary.count ?? 0) >= 49, `counted ${summary.count}`);
    assert.equal(stacks().length, 1);
    assert.equal((await app.inject({ url: '/rest/product/product?limit=1' })).statusCode, 200);
  });
});
