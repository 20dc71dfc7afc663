import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { desc, eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { adminAccountToken } from '../../src/modules/staff/account-tokens.tables.ts';
import { adminUsers } from '../../src/modules/auth/auth.tables.ts';
import { mailMessage } from '../../src/modules/mail/mail.tables.ts';
import { bearer, startTestApp, type TestApp } from '../helpers/app.ts';
import { createAdmin, get, login, post, ROOT, registerCustomer, uniqueEmail } from './auth-helpers.ts';

const PATH = '/rest/system/admin-user';
const CONFIRM = '/rest/auth/admin/password-reset/confirm';
/** A user defined in configuration beside ROOT, whose username a database user may not take. */
const CONFIGURED = {
  username: 'configured@example.com',
  password: 'configured-pw',
  name: 'Conf',
  roles: [5],
};

describe('system/admin-user', () => {
  let t: TestApp;
  let rootToken: string;
  /** A database admin holding Admin (3), CMS, Products, Orders and Media, but not Superuser or Marketing (8). */
  let adminToken: string;
  let adminId: number;

  before(async () => {
    t = await startTestApp({ config: { staticUsers: [ROOT, CONFIGURED] } });
    rootToken = (await login(t.app, 'admin', ROOT.username, ROOT.password)).access_token;
    const admin = await createAdmin(t.app, rootToken, { roles: [3, 4, 5, 6, 9] });
    adminId = admin.id;
    adminToken = (await login(t.app, 'admin', admin.username, admin.password)).access_token;
  });
  after(() => t.close());

  const patch = (id: number, payload: object, token = adminToken) =>
    t.app.inject({ method: 'PATCH', url: `${PATH}/${id}`, payload, headers: bearer(token) });
  const refresh = (token: string) => post(t.app, '/rest/auth/admin/refresh', { refresh_token: token });
  const resetFor = (id: number, token = adminToken) => post(t.app, `${PATH}/${id}/password-reset`, {}, token);
  const mailsTo = (to: string) =>
    t.app.db.select().from(mailMessage).where(eq(mailMessage.toAddress, to)).orderBy(desc(mailMessage.id));
  /** The single-use code of the latest message to `to`, which must exist. */
  const codeTo = async (to: string, subject: RegExp) => {
    const [mail] = await mailsTo(to);
    assert.ok(mail, `a message to ${to}`);
    assert.match(mail.subject, subject);
    const code = /^([A-Za-z0-9_-]{43})$/m.exec(mail.textBody)?.[1];
    assert.ok(code, `a code in: ${mail.textBody}`);
    return code;
  };
  const rowOf = async (id: number) =>
    (await t.app.db.select().from(adminUsers).where(eq(adminUsers.id, id)))[0];

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
    const patchUnknown = await patch(1, { email: 'x@example.com' });
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
    const lesser = await createAdmin(t.app, rootToken, { roles: [5] });
    const withdraw = await patch(lesser.id, { roles: [] });
    assert.equal(withdraw.statusCode, 200, 'a role it holds (5) may be withdrawn');
    const addHeld = await patch(lesser.id, { roles: [6] });
    assert.equal(addHeld.statusCode, 200);
    assert.deepEqual(addHeld.json().data.roles, [6]);
    const marketer = await createAdmin(t.app, rootToken, { roles: [5, 8] });
    assert.equal((await patch(marketer.id, { roles: [5] })).statusCode, 403);
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
    assert.equal((await patch(superuser.id, { name: 'taken over' })).statusCode, 403);
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
  test('when an Admin holding only role 3 aims at a richer account, then its name, username, activity and a password reset are 403 and nothing changes', async () => {
    const onlyAdmin = await createAdmin(t.app, rootToken, { roles: [3] });
    const token = (await login(t.app, 'admin', onlyAdmin.username, onlyAdmin.password)).access_token;
    const richer = await createAdmin(t.app, rootToken, { roles: [2, 3, 5, 6, 7, 8, 9], name: 'Rich' });
    const before = await rowOf(richer.id);
    for (const body of [{ name: 'Renamed' }, { active: false }, { username: uniqueEmail('moved') }, {}]) {
      const res = await patch(richer.id, body, token);
      assert.equal(res.statusCode, 403, JSON.stringify(body));
      assert.equal(res.json().error.code, 'FORBIDDEN');
      assert.match(res.json().error.message, /every role it holds/);
    }
    const reset = await resetFor(richer.id, token);
    assert.equal(reset.statusCode, 403);
    assert.deepEqual(await mailsTo(richer.username), []);
    assert.deepEqual(await rowOf(richer.id), before);
    await login(t.app, 'admin', richer.username, richer.password);
    // A Superuser may, and an Admin may on an account whose roles it all holds.
    assert.equal((await patch(richer.id, { name: 'Still rich' }, rootToken)).statusCode, 200);
    const poorer = await createAdmin(t.app, rootToken, { roles: [3] });
    assert.equal((await patch(poorer.id, { name: 'Peer' }, token)).statusCode, 200);
  });

  test('when a PATCH names a password, for another admin or oneself, then 400 naming the field and nothing changes', async () => {
    const other = await createAdmin(t.app, rootToken, { roles: [5] });
    for (const [id, token] of [
      [other.id, adminToken],
      [other.id, rootToken],
      [adminId, adminToken],
    ] as const) {
      const res = await patch(id, { password: 'taken-over-1', name: 'x' }, token);
      assert.equal(res.statusCode, 400);
      const { error } = res.json();
      assert.equal(error.code, 'VALIDATION_FAILED');
      assert.deepEqual(
        error.details.map((d: { field: string }) => d.field),
        ['password'],
      );
      assert.match(error.details[0].message, /password-reset/);
    }
    assert.equal((await rowOf(other.id)).name, '');
    await login(t.app, 'admin', other.username, other.password);
  });

  test('when an Admin asks a password reset, then the owner is e-mailed a single-use code, the password stays until it is used, and using it ends every session', async () => {
    const owner = await createAdmin(t.app, rootToken, { roles: [5], name: 'Owner' });
    const pair = await login(t.app, 'admin', owner.username, owner.password);
    const res = await resetFor(owner.id);
    assert.equal(res.statusCode, 202);
    assert.deepEqual(res.json(), { success: true });
    const code = await codeTo(owner.username, /Reset your password/);
    assert.equal(
      (await refresh(pair.refresh_token)).statusCode,
      200,
      'nothing changes before the owner acts',
    );
    await login(t.app, 'admin', owner.username, owner.password);
    const stored = await t.app.db
      .select({ hash: adminAccountToken.tokenHash })
      .from(adminAccountToken)
      .where(eq(adminAccountToken.adminUserId, owner.id));
    assert.ok(stored.length > 0 && stored.every((r) => r.hash !== code && /^[0-9a-f]{64}$/.test(r.hash)));
    const confirmed = await post(t.app, CONFIRM, { token: code, password: 'owner-chose-this' });
    assert.equal(confirmed.statusCode, 200, confirmed.body);
    assert.equal((await refresh(pair.refresh_token)).statusCode, 401);
    assert.equal((await get(t.app, '/rest/auth/admin/me', pair.access_token)).statusCode, 401);
    const old = await post(t.app, '/rest/auth/admin/login', {
      username: owner.username,
      password: owner.password,
    });
    assert.equal(old.statusCode, 401);
    await login(t.app, 'admin', owner.username, 'owner-chose-this');
    const again = await post(t.app, CONFIRM, { token: code, password: 'someone-else-1' });
    assert.equal(again.statusCode, 400);
    assert.equal(again.json().error.code, 'TOKEN_INVALID');
    const unknown = await post(t.app, CONFIRM, { token: 'x'.repeat(43), password: 'someone-else-1' });
    assert.equal(unknown.json().error.code, 'TOKEN_INVALID');
  });

  test('when a user is created without a password, then it is e-mailed an invitation and signs in with the password it chose', async () => {
    const username = uniqueEmail('invited');
    const res = await post(t.app, PATH, { username, roles: [5], name: 'Invited' }, adminToken);
    assert.equal(res.statusCode, 201, res.body);
    const code = await codeTo(username, /back-office account/);
    const confirmed = await post(t.app, CONFIRM, { token: code, password: 'my-own-choice' });
    assert.equal(confirmed.statusCode, 200, confirmed.body);
    const pair = await login(t.app, 'admin', username, 'my-own-choice');
    assert.deepEqual(decodeJwt(pair.access_token).roles, [5]);
    const withPassword = await createAdmin(t.app, adminToken, { roles: [5] });
    assert.deepEqual(
      await mailsTo(withPassword.username),
      [],
      'a user created with a password gets no invitation',
    );
  });

  test('when a database user is created or renamed with the username of a configured user, then 409 CONFLICT as for a duplicate', async () => {
    const created = await post(
      t.app,
      PATH,
      { username: ` ${CONFIGURED.username.toUpperCase()} `, password: 'long-enough', roles: [5] },
      adminToken,
    );
    assert.equal(created.statusCode, 409);
    assert.equal(created.json().error.code, 'CONFLICT');
    const user = await createAdmin(t.app, rootToken, { roles: [5] });
    const taken = await createAdmin(t.app, rootToken, { roles: [5] });
    for (const username of [CONFIGURED.username, ROOT.username, taken.username.toUpperCase()]) {
      const renamed = await patch(user.id, { username });
      assert.equal(renamed.statusCode, 409, username);
      assert.equal(renamed.json().error.code, 'CONFLICT');
    }
    assert.equal((await rowOf(user.id)).username, user.username);
    const free = uniqueEmail('renamed');
    assert.equal((await patch(user.id, { username: free.toUpperCase() })).json().data.username, free);
    await login(t.app, 'admin', free, user.password);
  });

  test('when any back-office user answer leaves, successes and refusals alike, then Cache-Control is no-store', async () => {
    const user = await createAdmin(t.app, rootToken, { roles: [5] });
    const products = (await login(t.app, 'admin', user.username, user.password)).access_token;
    const answers = [
      await get(t.app, PATH, adminToken),
      await get(t.app, `${PATH}/${user.id}`, adminToken),
      await post(t.app, PATH, { username: uniqueEmail(), password: 'long-enough', roles: [5] }, adminToken),
      await patch(user.id, { name: 'No store' }),
      await resetFor(user.id),
      await patch(user.id, { password: 'x' }),
      await get(t.app, PATH, products),
      await get(t.app, PATH),
    ];
    assert.deepEqual(
      answers.map((r) => [r.statusCode, r.headers['cache-control']]),
      [200, 200, 201, 200, 202, 400, 403, 401].map((status) => [status, 'private, no-store']),
    );
  });
});
