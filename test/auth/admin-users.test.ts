import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decodeJwt } from 'jose';
import { bearer, startTestApp, type TestApp } from '../helpers/app.ts';
import { createAdmin, get, login, post, ROOT, registerCustomer, uniqueEmail } from './auth-helpers.ts';

const PATH = '/rest/system/admin-user';

describe('system/admin-user', () => {
  let t: TestApp;
  let rootToken: string;
  /** A database admin holding Admin (3), CMS, Products, Orders and Media, but not Superuser or Marketing (8). */
  let adminToken: string;
  let adminId: number;

  before(async () => {
    t = await startTestApp({ config: { staticUsers: [ROOT] } });
    rootToken = (await login(t.app, 'admin', ROOT.username, ROOT.password)).access_token;
    const admin = await createAdmin(t.app, rootToken, { roles: [3, 4, 5, 6, 9] });
    adminId = admin.id;
    adminToken = (await login(t.app, 'admin', admin.username, admin.password)).access_token;
  });
  after(() => t.close());

  const patch = (id: number, payload: object, token = adminToken) =>
    t.app.inject({ method: 'PATCH', url: `${PATH}/${id}`, payload, headers: bearer(token) });
  const refresh = (token: string) => post(t.app, '/rest/auth/admin/refresh', { refresh_token: token });

  test('when an Admin creates a user, then 201 answers it without any password or hash', async () => {
    const username = uniqueEmail('new');
    const res = await post(
      t.app,
      PATH,
      { username: username.toUpperCase(), password: 'new-password', roles: [6, 5, 5], name: ' Ann ' },
      adminToken,
    );
    assert.equal(res.statusCode, 201);
    const { data } = res.json();
    assert.deepEqual(Object.keys(data).sort(), ['active', 'createdAt', 'id', 'name', 'roles', 'username']);
    assert.equal(data.username, username);
    assert.deepEqual(data.roles, [5, 6]);
    assert.equal(data.name, 'Ann');
    assert.equal(data.active, true);
    assert.doesNotMatch(res.body, /argon2|new-password/);
    const shown = await get(t.app, `${PATH}/${data.id}`, adminToken);
    assert.deepEqual(shown.json(), { success: true, data });
  });

  test('when the username exists in any case, then 409 CONFLICT', async () => {
    const admin = await createAdmin(t.app, rootToken, { roles: [4] });
    const res = await post(
      t.app,
      PATH,
      { username: admin.username.toUpperCase(), password: 'whatever-1', roles: [4] },
      adminToken,
    );
    assert.equal(res.statusCode, 409);
    assert.equal(res.json().error.code, 'CONFLICT');
  });

  test('when the body has unknown fields, a bad role id, a short password or a non-e-mail username, then 400', async () => {
    const base = { username: uniqueEmail(), password: 'long-enough', roles: [4] };
    for (const body of [
      { ...base, passwordHash: 'x' },
      { ...base, roles: [10] },
      { ...base, roles: [0] },
      { ...base, password: 'short' },
      { ...base, username: 'not-an-email' },
      { username: base.username, password: base.password },
    ]) {
      const res = await post(t.app, PATH, body, adminToken);
      assert.equal(res.statusCode, 400, JSON.stringify(body));
      assert.equal(res.json().error.code, 'VALIDATION_FAILED');
    }
    const patchUnknown = await patch(1, { username: 'x@example.com' });
    assert.equal(patchUnknown.statusCode, 400);
  });

  test('when users are listed, then the standard pagination envelope answers with page and limit applied', async () => {
    for (let i = 0; i < 3; i++) await createAdmin(t.app, rootToken, { roles: [7] });
    const all = (await get(t.app, PATH, adminToken)).json();
    const total = all.pagination.total;
    assert.ok(total >= 4);
    const res = await get(t.app, `${PATH}?page=2&limit=2`, adminToken);
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.equal(body.success, true);
    assert.equal(body.data.length, 2);
    assert.deepEqual(body.pagination, {
      current_page: 2,
      per_page: 2,
      total,
      total_pages: Math.ceil(total / 2),
      has_next: total > 4,
      has_prev: true,
    });
    assert.ok(body.data[0].id < body.data[1].id, 'stable order by id');
    for (const limit of ['0', '']) {
      assert.equal((await get(t.app, `${PATH}?limit=${limit}`, adminToken)).json().pagination.per_page, 15);
    }
    const past = (await get(t.app, `${PATH}?page=999`, adminToken)).json();
    assert.deepEqual(past.data, []);
    for (const query of ['page=0', 'limit=-1', 'limit=1.5', 'page=x', 'limit=0x10']) {
      assert.equal((await get(t.app, `${PATH}?${query}`, adminToken)).statusCode, 400, query);
    }
    // The one paging schema of every list: a large limit is never an error.
    assert.equal((await get(t.app, `${PATH}?limit=1000000000000`, adminToken)).statusCode, 200);
  });

  test('when an unknown id is read or patched, then 404 NOT_FOUND', async () => {
    assert.equal((await get(t.app, `${PATH}/999999`, adminToken)).json().error.code, 'NOT_FOUND');
    assert.equal((await patch(999999, { name: 'x' })).statusCode, 404);
  });

  test('when a user is disabled, then its refresh tokens are revoked and it cannot log in', async () => {
    const admin = await createAdmin(t.app, rootToken, { roles: [5] });
    const pair = await login(t.app, 'admin', admin.username, admin.password);
    const res = await patch(admin.id, { active: false });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().data.active, false);
    assert.equal((await refresh(pair.refresh_token)).statusCode, 401);
    const again = await post(t.app, '/rest/auth/admin/login', {
      username: admin.username,
      password: admin.password,
    });
    assert.equal(again.statusCode, 401);
    await patch(admin.id, { active: true });
    await login(t.app, 'admin', admin.username, admin.password);
  });

  test('when the roles change, then refresh tokens are revoked and a new login carries the new roles', async () => {
    const admin = await createAdmin(t.app, rootToken, { roles: [5] });
    const pair = await login(t.app, 'admin', admin.username, admin.password);
    const res = await patch(admin.id, { roles: [5, 9], name: 'Renamed' });
    assert.deepEqual(res.json().data.roles, [5, 9]);
    assert.equal(res.json().data.name, 'Renamed');
    assert.equal((await refresh(pair.refresh_token)).statusCode, 401);
    const fresh = await login(t.app, 'admin', admin.username, admin.password);
    assert.deepEqual(decodeJwt(fresh.access_token).roles, [5, 9]);
  });

  test('when an Admin grants or withdraws a role it does not hold, then 403 and nothing changes; its own roles it cannot change at all', async () => {
    const grant = await post(
      t.app,
      PATH,
      { username: uniqueEmail(), password: 'long-enough', roles: [5, 8] },
      adminToken,
    );
    assert.equal(grant.statusCode, 403);
    assert.match(grant.json().error.message, /only roles it holds/);
    const marketer = await createAdmin(t.app, rootToken, { roles: [5, 8] });
    const withdraw = await patch(marketer.id, { roles: [5] });
    assert.equal(withdraw.statusCode, 403);
    const addHeld = await patch(marketer.id, { roles: [5, 6, 8] });
    assert.equal(
      addHeld.statusCode,
      200,
      'a role it holds (6) may be added beside one it does not keep touching',
    );
    assert.deepEqual(addHeld.json().data.roles, [5, 6, 8]);
    const own = await patch(adminId, { roles: [3, 4, 5, 6] });
    assert.equal(own.statusCode, 403);
    assert.match(own.json().error.message, /own roles/);
    const shown = await get(t.app, `${PATH}/${adminId}`, rootToken);
    assert.deepEqual(shown.json().data.roles, [3, 4, 5, 6, 9]);
    const bySuperuser = await patch(marketer.id, { roles: [2] }, rootToken);
    assert.equal(bySuperuser.statusCode, 200);
  });

  test('when only the name changes, then refresh tokens keep working', async () => {
    const admin = await createAdmin(t.app, rootToken, { roles: [5] });
    const pair = await login(t.app, 'admin', admin.username, admin.password);
    assert.equal((await patch(admin.id, { name: 'Just a name', roles: [5] })).statusCode, 200);
    assert.equal((await refresh(pair.refresh_token)).statusCode, 200);
  });

  test('when the password is reset, then old tokens and the old password stop working', async () => {
    const admin = await createAdmin(t.app, rootToken, { roles: [5] });
    const pair = await login(t.app, 'admin', admin.username, admin.password);
    assert.equal((await patch(admin.id, { password: 'reset-password' })).statusCode, 200);
    assert.equal((await refresh(pair.refresh_token)).statusCode, 401);
    const old = await post(t.app, '/rest/auth/admin/login', {
      username: admin.username,
      password: admin.password,
    });
    assert.equal(old.statusCode, 401);
    await login(t.app, 'admin', admin.username, 'reset-password');
  });

  test('when a non-Superuser grants Superuser or changes a Superuser, then 403; a Superuser may', async () => {
    const grant = await post(
      t.app,
      PATH,
      { username: uniqueEmail(), password: 'long-enough', roles: [1] },
      adminToken,
    );
    assert.equal(grant.statusCode, 403);
    assert.equal(grant.json().error.code, 'FORBIDDEN');
    const superuser = await createAdmin(t.app, rootToken, { roles: [1] });
    assert.equal((await patch(superuser.id, { password: 'taken-over-1' })).statusCode, 403);
    const lesser = await createAdmin(t.app, rootToken, { roles: [5] });
    assert.equal((await patch(lesser.id, { roles: [1] })).statusCode, 403);
    assert.equal((await patch(lesser.id, { roles: [1] }, rootToken)).statusCode, 200);
  });

  test('when an admin lacks the Admin role or a customer calls, then 403; without a token 401', async () => {
    const products = await createAdmin(t.app, rootToken, { roles: [5] });
    const token = (await login(t.app, 'admin', products.username, products.password)).access_token;
    assert.equal((await get(t.app, PATH, token)).statusCode, 403);
    const customer = await registerCustomer(t.app);
    assert.equal((await get(t.app, PATH, customer.access_token)).statusCode, 403);
    assert.equal((await get(t.app, PATH)).statusCode, 401);
  });
});
