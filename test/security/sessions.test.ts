import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { SignJWT } from 'jose';
import type { App } from '../../src/app.ts';
import { queryRows } from '../../src/db/client.ts';
import { get, login, post, ROOT, registerCustomer } from '../auth/auth-helpers.ts';
import { bearer, startTestApp, TEST_SECRET, type TestApp } from '../helpers/app.ts';

// Tokens end with their session: logout, a password change, disabling, deleting or new roles
// refuse the access tokens at once on the instance that revoked them, and on another instance
// over the same database as soon as it has read the revocation feed.

const ME = '/rest/auth/customer/me';

function claimsOf(token: string): { sid: number; sub: string } {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());
}

async function status(app: App, url: string, token: string): Promise<number> {
  return (await get(app, url, token)).statusCode;
}

/** Polls until the token is refused; answers how long that took (bounded, so a regression fails). */
async function refusedWithin(app: App, token: string, url = ME): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < 10_000) {
    if ((await status(app, url, token)) === 401) return performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.fail(`the token was still accepted after 10 s on ${url}`);
}

describe('sessions and revocation', () => {
  let a: TestApp;
  let b: TestApp;
  let root: string;

  before(async () => {
    a = await startTestApp({ config: { staticUsers: [ROOT] } });
    // A second instance over the same database: its own caches, its own revocation list.
    b = await startTestApp({ config: { staticUsers: [ROOT] }, testDatabase: a.testDatabase });
    root = (await login(a.app, 'admin', ROOT.username, ROOT.password)).access_token;
  });
  after(async () => {
    await b.close();
    await a.close();
  });

  test('when a customer logs out, then that session’s access token is refused at once here and on the other instance, and other sessions go on', async () => {
    const first = await registerCustomer(a.app);
    const second = await login(a.app, 'customer', first.email, first.password);
    assert.equal(await status(b.app, ME, first.access_token), 200);
    assert.equal(
      (await post(a.app, '/rest/auth/customer/logout', { refresh_token: first.refresh_token })).statusCode,
      200,
    );
    assert.equal(await status(a.app, ME, first.access_token), 401);
    const delay = await refusedWithin(b.app, first.access_token);
    console.log(`[figures] revocation reached the other instance after ${delay.toFixed(0)} ms`);
    assert.equal(await status(a.app, ME, second.access_token), 200);
    assert.equal(await status(b.app, ME, second.access_token), 200);
  });

  test('when a customer changes the password, then every session’s access token is refused', async () => {
    const customer = await registerCustomer(a.app);
    const other = await login(a.app, 'customer', customer.email, customer.password);
    const change = await post(
      a.app,
      '/rest/auth/customer/password',
      { currentPassword: customer.password, newPassword: 'a-new-password-1' },
      customer.access_token,
    );
    assert.equal(change.statusCode, 200);
    assert.equal(await status(a.app, ME, customer.access_token), 401);
    assert.equal(await status(a.app, ME, other.access_token), 401);
    await refusedWithin(b.app, other.access_token);
    const fresh = await login(a.app, 'customer', customer.email, 'a-new-password-1');
    assert.equal(await status(a.app, ME, fresh.access_token), 200);
  });

  test('when an admin disables a customer, then its token no longer reads, writes a cart or adds an address', async () => {
    const customer = await registerCustomer(a.app);
    const token = customer.access_token;
    const cart = await a.app.inject({ method: 'GET', url: '/rest/cart', headers: bearer(token) });
    assert.equal(cart.statusCode, 200);
    const { id } = (await get(a.app, ME, token)).json().data;
    const disable = await a.app.inject({
      method: 'PATCH',
      url: `/rest/customer/customer/${id}`,
      payload: { active: false },
      headers: bearer(root),
    });
    assert.equal(disable.statusCode, 200);
    const address = {
      firstName: 'A',
      lastName: 'B',
      street: 'S 1',
      city: 'C',
      postalCode: '1000',
      countryAlpha2: 'CY',
    };
    const writes = [
      await a.app.inject({
        method: 'POST',
        url: '/rest/cart/items',
        payload: { productId: 1, qty: 1 },
        headers: bearer(token),
      }),
      await a.app.inject({
        method: 'POST',
        url: '/rest/customer/address',
        payload: address,
        headers: bearer(token),
      }),
      await a.app.inject({ method: 'GET', url: '/rest/customer/address', headers: bearer(token) }),
    ];
    for (const res of writes) {
      assert.equal(res.statusCode, 401, res.body);
      assert.equal(res.json().error.code, 'UNAUTHENTICATED');
    }
    await refusedWithin(b.app, token, '/rest/cart');
  });

  test('when a customer is deleted, then its token answers 401 everywhere', async () => {
    const customer = await registerCustomer(a.app);
    const { id } = (await get(a.app, ME, customer.access_token)).json().data;
    const removed = await a.app.inject({
      method: 'DELETE',
      url: `/rest/customer/customer/${id}`,
      headers: bearer(root),
    });
    assert.equal(removed.statusCode, 200);
    assert.equal(await status(a.app, '/rest/cart', customer.access_token), 401);
    assert.equal(await status(a.app, '/rest/product/product', customer.access_token), 401);
  });

  test('when an admin’s roles change, then its access tokens are refused at once', async () => {
    const created = await post(
      a.app,
      '/rest/system/admin-user',
      { username: 'roles-change@example.com', password: 'admin-password', roles: [5] },
      root,
    );
    const adminId = created.json().data.id;
    const pair = await login(a.app, 'admin', 'roles-change@example.com', 'admin-password');
    assert.equal(await status(a.app, '/rest/auth/admin/me', pair.access_token), 200);
    const change = await a.app.inject({
      method: 'PATCH',
      url: `/rest/system/admin-user/${adminId}`,
      payload: { roles: [5, 9] },
      headers: bearer(root),
    });
    assert.equal(change.statusCode, 200);
    assert.equal(await status(a.app, '/rest/auth/admin/me', pair.access_token), 401);
    await refusedWithin(b.app, pair.access_token, '/rest/auth/admin/me');
  });

  test('when anything under /rest/auth answers, tokens and refusals alike, then Cache-Control is no-store', async () => {
    const customer = await registerCustomer(a.app);
    const answers = [
      await post(a.app, '/rest/auth/customer/login', {
        username: customer.email,
        password: customer.password,
      }),
      await post(a.app, '/rest/auth/customer/login', {
        username: customer.email,
        password: 'wrong-password',
      }),
      await post(a.app, '/rest/auth/customer/refresh', { refresh_token: customer.refresh_token }),
      await get(a.app, ME, customer.access_token),
      await post(a.app, '/rest/auth/admin/login', { username: ROOT.username, password: ROOT.password }),
    ];
    for (const res of answers) assert.equal(res.headers['cache-control'], 'private, no-store', res.body);
  });

  test('when a validly signed token names no account, an odd subject or no session, then 401 on reads and writes, never 500', async () => {
    const { sid } = claimsOf(root);
    const sign = (sub: string, extra: Record<string, unknown> = {}) =>
      new SignJWT({ ctx: 'customer', typ: 'access', sid, ...extra })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(sub)
        .setIssuer('shop-rest-api')
        .setAudience('shop-rest-api:customer')
        .setIssuedAt()
        .setExpirationTime('10m')
        .setJti(crypto.randomUUID())
        .sign(new TextEncoder().encode(TEST_SECRET));
    const tokens = [
      await sign('abc'),
      await sign('99999999999'),
      await sign('0x10'),
      await sign('42'),
      await sign('42', { sid: 'x' }),
      await sign('42', { sid: 99_999_999 }),
    ];
    for (const token of tokens) {
      for (const [method, url] of [
        ['GET', ME],
        ['GET', '/rest/cart'],
        ['POST', '/rest/cart/items'],
        ['GET', '/rest/product/product'],
      ] as const) {
        const res = await a.app.inject({
          method,
          url,
          headers: bearer(token),
          payload: method === 'POST' ? { productId: 1, qty: 1 } : undefined,
        });
        assert.equal(res.statusCode, 401, `${method} ${url} with sub ${claimsOf(token).sub}: ${res.body}`);
      }
    }
  });
});

describe('the signing key', () => {
  let a: TestApp;
  let b: TestApp;

  before(async () => {
    a = await startTestApp({ config: { auth: { secret: '' }, staticUsers: [ROOT] } });
    b = await startTestApp({
      config: { auth: { secret: '' }, staticUsers: [ROOT] },
      testDatabase: a.testDatabase,
    });
  });
  after(async () => {
    await b.close();
    await a.close();
  });

  test('when no secret is configured, then a random key is made once and kept in the database, shared by every instance', async () => {
    const stored = await queryRows<{ secret: string }>(
      a.database.db,
      sql`select secret from auth_signing_key`,
    );
    assert.equal(stored.length, 1);
    assert.ok(Buffer.from(stored[0].secret, 'base64url').length >= 32);
    const pair = await login(a.app, 'admin', ROOT.username, ROOT.password);
    assert.equal(await status(b.app, '/rest/auth/admin/me', pair.access_token), 200);
  });

  test('when a Superuser token is forged with a key from the repository, then 401', async () => {
    const { sid } = claimsOf((await login(a.app, 'admin', ROOT.username, ROOT.password)).access_token);
    for (const key of ['demo-secret-change-me-before-going-live-0123456789', TEST_SECRET]) {
      const forged = await new SignJWT({ ctx: 'admin', typ: 'access', roles: [1], sid })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(`static:${ROOT.username}`)
        .setIssuer('shop-rest-api')
        .setAudience('shop-rest-api:admin')
        .setIssuedAt()
        .setExpirationTime('10m')
        .setJti(crypto.randomUUID())
        .sign(new TextEncoder().encode(key));
      const res = await a.app.inject({
        method: 'GET',
        url: '/rest/system/admin-user',
        headers: bearer(forged),
      });
      assert.equal(res.statusCode, 401);
    }
  });
});
