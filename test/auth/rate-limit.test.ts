import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { bearer, sessionToken, startTestApp, type TestApp } from '../helpers/app.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { createAdmin, type Pair, ROOT, uniqueEmail } from './auth-helpers.ts';

const LIMITS = {
  enabled: true,
  loginPerAccount: 2,
  loginPerAccountAllIps: 2,
  loginPerIp: 3,
  registerPerIp: 2,
  refreshPerIp: 3,
  windowSeconds: 60,
};

let ipCounter = 0;
/** A fresh client address per test, so per-IP counters of different tests never meet. */
function freshIp(): string {
  ipCounter += 1;
  return `10.1.${Math.floor(ipCounter / 250)}.${ipCounter % 250}`;
}

function assertRateLimited(res: LightMyRequestResponse): void {
  assert.equal(res.statusCode, 429, res.body);
  const body = res.json();
  assert.equal(body.success, false);
  assert.equal(body.error.code, 'RATE_LIMITED');
  const retryAfter = Number(res.headers['retry-after']);
  assert.ok(
    Number.isInteger(retryAfter) && retryAfter > 0 && retryAfter <= LIMITS.windowSeconds,
    `${retryAfter}`,
  );
}

describe('rate limits (in memory)', () => {
  let testDb: TestDatabase;
  let t: TestApp;
  let proxied: TestApp;

  before(async () => {
    testDb = await createTestDatabase();
    t = await startTestApp({ testDatabase: testDb, config: { staticUsers: [ROOT], rateLimit: LIMITS } });
    proxied = await startTestApp({ testDatabase: testDb, config: { trustProxy: true, rateLimit: LIMITS } });
  });
  after(async () => {
    await t.close();
    await proxied.close();
    await testDb.destroy();
  });

  /** Registers from an address of its own, so the registration limit is not spent. */
  async function newCustomer(): Promise<Pair> {
    const res = await t.app.inject({
      method: 'POST',
      url: '/rest/auth/customer/register',
      remoteAddress: freshIp(),
      payload: { email: uniqueEmail(), password: 'long-enough', firstName: 'A', lastName: 'B' },
    });
    assert.equal(res.statusCode, 201);
    return res.json() as Pair;
  }

  const loginFrom = (app: TestApp, ip: string, username: string, password = 'wrong-password', headers = {}) =>
    app.app.inject({
      method: 'POST',
      url: '/rest/auth/admin/login',
      remoteAddress: ip,
      headers,
      payload: { username, password },
    });

  test('when an Admin asks password resets of one back-office user, then the 6th in the hour is 429 and mails nothing', async () => {
    const root = await sessionToken(t.app, {
      sub: `static:${ROOT.username}`,
      ctx: 'admin',
      roles: ROOT.roles,
    });
    const owner = await createAdmin(t.app, root, { roles: [5] });
    const other = await createAdmin(t.app, root, { roles: [5] });
    const reset = (id: number) =>
      t.app.inject({
        method: 'POST',
        url: `/rest/system/admin-user/${id}/password-reset`,
        headers: bearer(root),
      });
    const mailsTo = async (address: string) =>
      (await t.app.inject({ method: 'GET', url: '/rest/system/mail?limit=100', headers: bearer(root) }))
        .json()
        .data.filter((m: { to: string }) => m.to === address).length;
    for (let i = 0; i < 5; i++) assert.equal((await reset(owner.id)).statusCode, 202);
    const mailed = await mailsTo(owner.username);
    const refused = await reset(owner.id);
    assert.equal(refused.statusCode, 429, refused.body);
    assert.equal(refused.json().error.code, 'RATE_LIMITED');
    assert.ok(Number(refused.headers['retry-after']) <= 3600, 'counted per hour');
    assert.equal(await mailsTo(owner.username), mailed, 'a refused reset sends nothing');
    assert.equal((await reset(other.id)).statusCode, 202, 'another account counts apart');
  });

  test('when one account fails from many addresses, then the all-addresses limit answers 429 with Retry-After', async () => {
    const account = uniqueEmail('target');
    assert.equal((await loginFrom(t, freshIp(), account)).statusCode, 401);
    assert.equal((await loginFrom(t, freshIp(), account.toUpperCase())).statusCode, 401);
    assertRateLimited(await loginFrom(t, freshIp(), ` ${account} `));
  });

  test('when the all-addresses limit is reached, then even the right password waits; the other context counts apart', async () => {
    const ip = freshIp();
    await loginFrom(t, freshIp(), ROOT.username);
    await loginFrom(t, freshIp(), ROOT.username);
    assertRateLimited(await loginFrom(t, ip, ROOT.username, ROOT.password));
    const customerLogin = await t.app.inject({
      method: 'POST',
      url: '/rest/auth/customer/login',
      remoteAddress: ip,
      payload: { username: ROOT.username, password: ROOT.password },
    });
    assert.equal(customerLogin.statusCode, 401, 'the customer context counts its accounts apart');
  });

  test('when one address tries many accounts, then the per-IP limit answers 429 with the error envelope', async () => {
    const ip = freshIp();
    for (let i = 0; i < LIMITS.loginPerIp; i++)
      assert.equal((await loginFrom(t, ip, uniqueEmail())).statusCode, 401);
    assertRateLimited(await loginFrom(t, ip, uniqueEmail()));
    assert.equal(
      (await loginFrom(t, freshIp(), uniqueEmail())).statusCode,
      401,
      'another address is not limited',
    );
  });

  test('when X-Forwarded-For is spoofed without trustProxy, then the per-IP limit still applies', async () => {
    const ip = freshIp();
    for (let i = 0; i < LIMITS.loginPerIp; i++) {
      await loginFrom(t, ip, uniqueEmail(), 'x', { 'x-forwarded-for': `203.0.113.${i}` });
    }
    assertRateLimited(await loginFrom(t, ip, uniqueEmail(), 'x', { 'x-forwarded-for': '198.51.100.7' }));
  });

  test('when trustProxy is on, then X-Forwarded-For names the client and each client has its own count', async () => {
    const proxy = freshIp();
    for (let i = 0; i < LIMITS.loginPerIp; i++) {
      await loginFrom(proxied, proxy, uniqueEmail(), 'x', { 'x-forwarded-for': '203.0.113.50' });
    }
    assertRateLimited(
      await loginFrom(proxied, proxy, uniqueEmail(), 'x', { 'x-forwarded-for': '203.0.113.50' }),
    );
    const other = await loginFrom(proxied, proxy, uniqueEmail(), 'x', { 'x-forwarded-for': '203.0.113.51' });
    assert.equal(other.statusCode, 401);
  });

  test('when one address registers too often, then 429 before any account is created', async () => {
    const ip = freshIp();
    const register = (email: string) =>
      t.app.inject({
        method: 'POST',
        url: '/rest/auth/customer/register',
        remoteAddress: ip,
        payload: { email, password: 'long-enough', firstName: 'A', lastName: 'B' },
      });
    for (let i = 0; i < LIMITS.registerPerIp; i++)
      assert.equal((await register(uniqueEmail())).statusCode, 201);
    const email = uniqueEmail('limited');
    assertRateLimited(await register(email));
    const login = await t.app.inject({
      method: 'POST',
      url: '/rest/auth/customer/login',
      remoteAddress: freshIp(),
      payload: { username: email, password: 'long-enough' },
    });
    assert.equal(login.statusCode, 401, 'the refused registration created nothing');
  });

  test('when one address refreshes too often, then 429', async () => {
    const ip = freshIp();
    const customer = await newCustomer();
    const refresh = () =>
      t.app.inject({
        method: 'POST',
        url: '/rest/auth/customer/refresh',
        remoteAddress: ip,
        payload: { refresh_token: customer.refresh_token },
      });
    for (let i = 0; i < LIMITS.refreshPerIp; i++) assert.equal((await refresh()).statusCode, 200);
    assertRateLimited(await refresh());
  });

  test('when a customer guesses the current password too often, then 429', async () => {
    const customer = await newCustomer();
    const change = () =>
      t.app.inject({
        method: 'POST',
        url: '/rest/auth/customer/password',
        remoteAddress: freshIp(),
        headers: { authorization: `Bearer ${customer.access_token}` },
        payload: { currentPassword: 'guess-guess', newPassword: 'brand-new-password' },
      });
    for (let i = 0; i < LIMITS.loginPerAccount; i++) assert.equal((await change()).statusCode, 401);
    assertRateLimited(await change());
  });
});
