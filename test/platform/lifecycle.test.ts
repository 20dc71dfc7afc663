import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { type App, buildApp } from '../../src/app.ts';
import { access } from '../../src/http/access.ts';
import { testConfig } from '../helpers/app.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';

describe('health and graceful shutdown', () => {
  let app: App;
  let testDb: TestDatabase;
  let base: string;

  before(async () => {
    testDb = await createTestDatabase();
    app = await buildApp({ config: testConfig(), database: testDb.database, logger: false });
    app.get('/rest/test/slow', { config: { access: access.public() } }, async () => {
      await sleep(400);
      return { success: true, data: 'finished' };
    });
    base = await app.listen({ host: '127.0.0.1', port: 0 });
  });
  after(async () => {
    await app.close().catch(() => {});
    await testDb.destroy();
  });

  test('when the database answers, then live and ready are 200', async () => {
    const live = await fetch(`${base}/health/live`);
    assert.equal(live.status, 200);
    const ready = await fetch(`${base}/health/ready`);
    assert.equal(ready.status, 200);
    const body = (await ready.json()) as { data: { status: string; database: string } };
    assert.equal(body.data.status, 'ready');
    assert.equal(body.data.database, testDb.database.engine);
  });

  test('when neither metrics.token nor metrics.port is set, then GET /metrics answers 404', async () => {
    const res = await fetch(`${base}/metrics`);
    assert.equal(res.status, 404);
    assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'NOT_FOUND');
  });

  test('when the server closes, then in-flight requests finish, new ones get 503, and the port closes', async () => {
    const inFlight = fetch(`${base}/rest/test/slow`);
    await sleep(100);
    app.lifecycle.shuttingDown = true;
    const duringShutdown = await app.inject({ method: 'GET', url: '/health/ready' });
    assert.equal(duringShutdown.statusCode, 503);
    assert.equal(duringShutdown.json().error.code, 'SERVICE_UNAVAILABLE');
    const closing = app.close();
    const res = await inFlight;
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { data: string }).data, 'finished');
    await closing;
    await assert.rejects(fetch(`${base}/health/live`));
  });
});

describe('oversize headers', () => {
  test('when the request headers are too large, then a JSON 431 answers and the server keeps serving', async () => {
    const testDb = await createTestDatabase();
    const app = await buildApp({ config: testConfig(), database: testDb.database, logger: false });
    try {
      const base = await app.listen({ host: '127.0.0.1', port: 0 });
      const res = await fetch(`${base}/health/live`, { headers: { 'x-big': 'a'.repeat(20_000) } });
      assert.equal(res.status, 431);
      assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'HEADERS_TOO_LARGE');
      assert.equal((await fetch(`${base}/health/live`)).status, 200);
    } finally {
      await app.close();
      await testDb.destroy();
    }
  });
});
