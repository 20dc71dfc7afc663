import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildApp } from '../../src/app.ts';
import { startTestApp, type TestApp, testConfig } from '../helpers/app.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { startProxy } from '../helpers/hardening/proxy.ts';
import { uniqueEmail } from './auth-helpers.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Whether a Redis server answers at REDIS_URL. */
async function redisAnswers(): Promise<boolean> {
  const { hostname, port } = new URL(REDIS_URL);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port || 6379) });
    socket.setTimeout(1_000);
    socket.once('connect', () => {
      socket.end();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

// CI (.ci/run) starts Redis, and there a missing server fails this file; elsewhere the file is
// skipped with a message, since the README asks for nothing but Node.
const redisUp = await redisAnswers();
if (!redisUp && process.env.CI) throw new Error(`Redis does not answer at ${REDIS_URL}, and CI needs it`);
const skip = redisUp ? false : `no Redis at ${REDIS_URL}: start one (redis-server) to run these tests`;

describe('rate limits shared through Redis', { skip }, () => {
  let testDb: TestDatabase;
  let one: TestApp;
  let two: TestApp;

  before(async () => {
    testDb = await createTestDatabase();
    // A key prefix of its own, so parallel runs against one Redis never share counters.
    const rateLimit = {
      enabled: true,
      loginPerIp: 3,
      loginPerAccount: 2,
      loginPerAccountAllIps: 1000,
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

  test('when failed logins alternate between two instances, then they share one count and the owner elsewhere still logs in', async () => {
    const email = uniqueEmail('shared');
    const password = 'the-right-password';
    const registered = await one.app.inject({
      method: 'POST',
      url: '/rest/auth/customer/register',
      remoteAddress: '10.9.1.1',
      payload: { email, password, firstName: 'A', lastName: 'B' },
    });
    assert.equal(registered.statusCode, 201, registered.body);
    const login = (instance: TestApp, ip: string, pw: string) =>
      instance.app.inject({
        method: 'POST',
        url: '/rest/auth/customer/login',
        remoteAddress: ip,
        payload: { username: email, password: pw },
      });
    assert.equal((await login(one, '10.9.0.2', 'wrong-password')).statusCode, 401);
    assert.equal((await login(two, '10.9.0.2', 'wrong-password')).statusCode, 401);
    // The third request of this address: within its per-IP limit, so the refusal is the failure count.
    const refused = await login(one, '10.9.0.2', password);
    assert.equal(refused.statusCode, 429, refused.body);
    assert.ok(Number(refused.headers['retry-after']) > 0);
    assert.equal((await login(two, '10.9.0.3', password)).statusCode, 200);
  });

  test('when Redis becomes unreachable, then the metric says so and logins are not limited until it is back', async () => {
    const { hostname, port } = new URL(REDIS_URL);
    const proxy = await startProxy(Number(port || 6379), hostname);
    const token = randomBytes(24).toString('hex');
    const t = await startTestApp({
      testDatabase: testDb,
      config: {
        redisUrl: `redis://127.0.0.1:${proxy.port}`,
        rateLimit: {
          enabled: true,
          loginPerIp: 1,
          windowSeconds: 60,
          keyPrefix: `test-${randomBytes(6).toString('hex')}:`,
        },
        metrics: { token },
      },
    });
    const reachable = async () => {
      const res = await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${token}` } });
      return res.body.match(/^shop_rate_limit_store_reachable (\d)$/m)?.[1];
    };
    const login = () =>
      t.app.inject({
        method: 'POST',
        url: '/rest/auth/customer/login',
        remoteAddress: '10.9.0.7',
        payload: { username: uniqueEmail(), password: 'wrong-password' },
      });
    try {
      assert.equal(await reachable(), '1');
      proxy.mode = 'refuse';
      proxy.cutAll();
      for (let i = 0; i < 100 && (await reachable()) !== '0'; i++) await sleep(20);
      assert.equal(await reachable(), '0');
      // loginPerIp is 1, yet nothing is counted while the store is away.
      assert.deepEqual([(await login()).statusCode, (await login()).statusCode], [401, 401]);
      proxy.mode = 'pass';
      for (let i = 0; i < 250 && (await reachable()) !== '1'; i++) await sleep(20);
      assert.equal(await reachable(), '1');
    } finally {
      await t.close();
      await proxy.close();
    }
  });

  test('when the Redis URL does not answer, then the app refuses to start', async () => {
    const config = testConfig({ redisUrl: 'redis://127.0.0.1:1', rateLimit: { enabled: true } });
    await assert.rejects(buildApp({ config, database: testDb.database, logger: false }), /REDIS_URL/);
  });
});
