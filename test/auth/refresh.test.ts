import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { queryRows } from '../../src/db/client.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createAdmin, get, login, post, ROOT, registerCustomer } from './auth-helpers.ts';

const OPS = { username: 'ops@example.com', password: 'ops-password', name: 'Ops', roles: [6] };

describe('refresh, logout and password change', () => {
  let t: TestApp;
  let rootToken: string;

  before(async () => {
    t = await startTestApp({ config: { staticUsers: [ROOT, OPS] } });
    rootToken = (await login(t.app, 'admin', ROOT.username, ROOT.password)).access_token;
  });
  after(() => t.close());

  const refresh = (ctx: string, token: string) =>
    post(t.app, `/rest/auth/${ctx}/refresh`, { refresh_token: token });

  test('when a refresh token is used twice, then both answer 200 with only an access token (no rotation)', async () => {
    const customer = await registerCustomer(t.app);
    for (let i = 0; i < 2; i++) {
      const res = await refresh('customer', customer.refresh_token);
      assert.equal(res.statusCode, 200);
      assert.deepEqual(Object.keys(res.json()), ['access_token']);
      assert.equal((await get(t.app, '/rest/auth/customer/me', res.json().access_token)).statusCode, 200);
    }
  });

  test("when a refresh token is used at the other context's endpoint, then 401 INVALID_REFRESH_TOKEN", async () => {
    const customer = await registerCustomer(t.app);
    const admin = await login(t.app, 'admin', OPS.username, OPS.password);
    for (const res of [
      await refresh('admin', customer.refresh_token),
      await refresh('customer', admin.refresh_token),
    ]) {
      assert.equal(res.statusCode, 401);
      assert.equal(res.json().error.code, 'INVALID_REFRESH_TOKEN');
    }
  });

  test('when a refresh token is unknown or an access token, then 401 INVALID_REFRESH_TOKEN', async () => {
    const customer = await registerCustomer(t.app);
    for (const token of ['made-up-token', customer.access_token]) {
      const res = await refresh('customer', token);
      assert.equal(res.statusCode, 401);
      assert.equal(res.json().error.code, 'INVALID_REFRESH_TOKEN');
    }
  });

  test('when refresh tokens are stored, then only their sha256 is kept', async () => {
    const customer = await registerCustomer(t.app);
    const digest = createHash('sha256').update(customer.refresh_token).digest('hex');
    const rows = await queryRows<{ token_hash: string; context: string; subject: string }>(
      t.database.db,
      sql`select token_hash, context, subject from refresh_token where token_hash = ${digest}`,
    );
    assert.equal(rows.length, 1);
    assert.equal(rows[0].context, 'customer');
    assert.equal(rows[0].subject, decodeJwt(customer.access_token).sub);
    const plain = await queryRows(
      t.database.db,
      sql`select 1 from refresh_token where token_hash = ${customer.refresh_token}`,
    );
    assert.equal(plain.length, 0);
  });

  test('when a refresh token has expired, then 401 INVALID_REFRESH_TOKEN', async () => {
    const customer = await registerCustomer(t.app);
    const digest = createHash('sha256').update(customer.refresh_token).digest('hex');
    await t.database.db.execute(
      sql`update refresh_token set expires_at = now() - interval '1 second' where token_hash = ${digest}`,
    );
    assert.equal((await refresh('customer', customer.refresh_token)).statusCode, 401);
  });

  test('when a refresh token is issued, then it expires after refreshTtlSeconds', async () => {
    const customer = await registerCustomer(t.app);
    const digest = createHash('sha256').update(customer.refresh_token).digest('hex');
    const rows = await queryRows<{ seconds: number }>(
      t.database.db,
      sql`select extract(epoch from expires_at - created_at)::int as seconds from refresh_token where token_hash = ${digest}`,
    );
    assert.ok(Math.abs(rows[0].seconds - t.config.auth.refreshTtlSeconds) <= 2);
  });

  test('when a database admin gets new roles, even directly in the table, then its sessions end and a new login carries them', async () => {
    const admin = await createAdmin(t.app, rootToken, { roles: [5] });
    const pair = await login(t.app, 'admin', admin.username, admin.password);
    await t.database.db.execute(sql`update admin_user set roles = '{5,8}' where id = ${admin.id}`);
    assert.equal((await refresh('admin', pair.refresh_token)).statusCode, 401);
    const again = await login(t.app, 'admin', admin.username, admin.password);
    assert.deepEqual(decodeJwt(again.access_token).roles, [5, 8]);
  });

  test('when a static user refreshes, then the token carries the roles of the configuration now', async () => {
    const pair = await login(t.app, 'admin', OPS.username, OPS.password);
    const configured = t.config.staticUsers.find((u) => u.username === OPS.username)!;
    configured.roles = [6, 7];
    try {
      const res = await refresh('admin', pair.refresh_token);
      assert.deepEqual(decodeJwt(res.json().access_token).roles, [6, 7]);
    } finally {
      configured.roles = OPS.roles;
    }
  });

  test('when an admin or a customer is disabled, then their refresh tokens stop working', async () => {
    const admin = await createAdmin(t.app, rootToken, { roles: [5] });
    const adminPair = await login(t.app, 'admin', admin.username, admin.password);
    await t.database.db.execute(sql`update admin_user set active = false where id = ${admin.id}`);
    assert.equal((await refresh('admin', adminPair.refresh_token)).statusCode, 401);

    const customer = await registerCustomer(t.app);
    await t.database.db.execute(sql`update customer set active = false where email = ${customer.email}`);
    assert.equal((await refresh('customer', customer.refresh_token)).statusCode, 401);
  });

  test('when a customer logs out, then that refresh token is revoked and others keep working', async () => {
    const customer = await registerCustomer(t.app);
    const other = await login(t.app, 'customer', customer.email, customer.password);
    const res = await post(t.app, '/rest/auth/customer/logout', { refresh_token: customer.refresh_token });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { success: true });
    assert.equal((await refresh('customer', customer.refresh_token)).statusCode, 401);
    assert.equal((await refresh('customer', other.refresh_token)).statusCode, 200);
  });

  test('when an unknown or already revoked token is logged out, then 200 all the same', async () => {
    const admin = await login(t.app, 'admin', OPS.username, OPS.password);
    for (let i = 0; i < 2; i++) {
      const res = await post(t.app, '/rest/auth/admin/logout', { refresh_token: admin.refresh_token });
      assert.deepEqual(res.json(), { success: true });
    }
    const unknown = await post(t.app, '/rest/auth/admin/logout', { refresh_token: 'never-issued' });
    assert.equal(unknown.statusCode, 200);
    assert.equal((await refresh('admin', admin.refresh_token)).statusCode, 401);
  });

  test('when a customer changes the password, then every refresh token is revoked and only the new one logs in', async () => {
    const customer = await registerCustomer(t.app);
    const second = await login(t.app, 'customer', customer.email, customer.password);
    const res = await post(
      t.app,
      '/rest/auth/customer/password',
      { currentPassword: customer.password, newPassword: 'brand-new-password' },
      customer.access_token,
    );
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { success: true });
    for (const token of [customer.refresh_token, second.refresh_token]) {
      assert.equal((await refresh('customer', token)).statusCode, 401);
    }
    const old = await post(t.app, '/rest/auth/customer/login', {
      username: customer.email,
      password: customer.password,
    });
    assert.equal(old.statusCode, 401);
    await login(t.app, 'customer', customer.email, 'brand-new-password');
  });

  test('when the current password is wrong, then 401 INVALID_CREDENTIALS and nothing changes', async () => {
    const customer = await registerCustomer(t.app);
    const res = await post(
      t.app,
      '/rest/auth/customer/password',
      { currentPassword: 'not-the-password', newPassword: 'brand-new-password' },
      customer.access_token,
    );
    assert.equal(res.statusCode, 401);
    assert.equal(res.json().error.code, 'INVALID_CREDENTIALS');
    assert.equal((await refresh('customer', customer.refresh_token)).statusCode, 200);
  });

  test('when the new password is too short or an admin calls the password route, then 400 / 403', async () => {
    const customer = await registerCustomer(t.app);
    const short = await post(
      t.app,
      '/rest/auth/customer/password',
      { currentPassword: customer.password, newPassword: 'short' },
      customer.access_token,
    );
    assert.equal(short.statusCode, 400);
    const admin = await post(
      t.app,
      '/rest/auth/customer/password',
      { currentPassword: 'x', newPassword: 'long-enough-1' },
      rootToken,
    );
    assert.equal(admin.statusCode, 403);
  });
});
