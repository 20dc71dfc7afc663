import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { buildApp } from '../../src/app.ts';
import { startTestApp, type TestApp, testConfig } from '../helpers/app.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { uniqueEmail } from './auth-helpers.ts';

/** CI starts Redis; this file fails (it does not skip) when Redis is down. */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('rate limits shared through Redis', () => {
  let testDb: TestDatabase;
  let one: TestApp;
  let two: TestApp;

  before(async () => {
    testDb = await createTestDatabase();
    // A key prefix of its own, so parallel runs against one Redis never share counters.
    const rateLimit = {
      enabled: true,
      loginPerIp: 3,
      loginPerAccount: 1000,
      windowSeconds: 60,
      keyPrefix: `test-${randomBytes(6).toString('hex')}:`,
    };
    const config = { redisUrl: REDIS_URL, rateLimit };
    one = await startTestApp({ testDatabase: testDb, config });
    two = await startTestApp({ testDatabase: testDb, config });
  });
  after(async () => {
    await one?.close();
    await two?.close();
    await testDb?.destroy();
  });

  test('when requests alternate between two instances, then they share one count and the 4th gets 429', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const instance = i % 2 === 0 ? one : two;
      const res = await instance.app.inject({
        method: 'POST',
        url: '/rest/auth/customer/login',
        remoteAddress: '10.9.0.1',
        payload: { username: uniqueEmail(), password: 'wrong-password' },
      });
      statuses.push(res.statusCode);
      if (res.statusCode === 429) {
        assert.equal(res.json().error.code, 'RATE_LIMITED');
        assert.ok(Number(res.headers['retry-after']) > 0);
      }
    }
    assert.deepEqual(statuses, [401, 401, 401, 429]);
  });

  test('when the Redis URL does not answer, then the app refuses to start', async () => {
    const config = testConfig({ redisUrl: 'redis://127.0.0.1:1', rateLimit: { enabled: true } });
    await assert.rejects(buildApp({ config, database: testDb.database, logger: false }), /REDIS_URL/);
  });
});
