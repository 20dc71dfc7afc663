import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { insertAdmin } from '../../src/modules/auth/auth.repo.ts';
import { hashPassword } from '../../src/modules/auth/passwords.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createAdmin, get, login, post, ROOT, registerCustomer, uniqueEmail } from './auth-helpers.ts';

const HASHED = { username: 'hashed@example.com', password: 'hashed-password', name: 'Hashed', roles: [5] };
/** A static user that shares its username with a database user created in the tests. */
const SHADOW = {
  username: 'shadow@example.com',
  password: 'static-shadow-password',
  name: 'Static',
  roles: [7],
};

describe('login', () => {
  let t: TestApp;
  let rootToken: string;

  before(async () => {
    const passwordHash = await hashPassword(HASHED.password);
    t = await startTestApp({
      config: {
        staticUsers: [
          ROOT,
          { username: HASHED.username, passwordHash, name: HASHED.name, roles: HASHED.roles },
          SHADOW,
        ],
      },
    });
    rootToken = (await login(t.app, 'admin', ROOT.username, ROOT.password)).access_token;
  });
  after(() => t.close());

  test('when a static admin logs in, then 200 answers the bare token pair with sub static:<username>', async () => {
    const res = await post(t.app, '/rest/auth/admin/login', {
      username: ROOT.username,
      password: ROOT.password,
    });
    assert.equal(res.statusCode, 200);
    const pair = res.json();
    assert.deepEqual(Object.keys(pair).sort(), ['access_token', 'device_token', 'refresh_token']);
    const claims = decodeJwt(pair.access_token);
    assert.equal(claims.sub, `static:${ROOT.username}`);
    assert.equal(claims.ctx, 'admin');
    assert.deepEqual(claims.roles, [1]);
  });

  test('when a static user with a passwordHash logs in with `email` in mixed case, then it succeeds', async () => {
    const res = await post(t.app, '/rest/auth/admin/login', {
      email: ' Hashed@Example.COM ',
      password: HASHED.password,
    });
    assert.equal(res.statusCode, 200);
    assert.equal(decodeJwt(res.json().access_token).sub, 'static:hashed@example.com');
  });

  test('when a database admin logs in, then sub is its id and roles are its roles', async () => {
    const admin = await createAdmin(t.app, rootToken, { roles: [5, 6], name: 'Db' });
    const pair = await login(t.app, 'admin', admin.username.toUpperCase(), admin.password);
    const claims = decodeJwt(pair.access_token);
    assert.equal(claims.sub, String(admin.id));
    assert.deepEqual(claims.roles, [5, 6]);
    const me = await get(t.app, '/rest/auth/admin/me', pair.access_token);
    assert.equal(me.statusCode, 200);
    assert.deepEqual(me.json(), {
      success: true,
      data: { id: String(admin.id), username: admin.username, name: 'Db', roles: [5, 6] },
    });
  });

  test('when a database user shares a static username, then the static user always wins', async () => {
    // The API refuses such a user (409, test/auth/admin-users.test.ts); one made before the static
    // user was configured can still exist.
    await insertAdmin(t.app.db, {
      username: SHADOW.username,
      passwordHash: await hashPassword('database-password'),
      name: 'Database',
      roles: [1],
      active: true,
    });
    const withDbPassword = await post(t.app, '/rest/auth/admin/login', {
      username: SHADOW.username,
      password: 'database-password',
    });
    assert.equal(withDbPassword.statusCode, 401);
    assert.equal(withDbPassword.json().error.code, 'INVALID_CREDENTIALS');
    const pair = await login(t.app, 'admin', SHADOW.username, SHADOW.password);
    const claims = decodeJwt(pair.access_token);
    assert.equal(claims.sub, `static:${SHADOW.username}`);
    assert.deepEqual(claims.roles, SHADOW.roles);
  });

  test('when the password is wrong or the user unknown, then both answer the same 401 body', async () => {
    const wrong = await post(t.app, '/rest/auth/admin/login', {
      username: ROOT.username,
      password: 'nope-nope',
    });
    const unknown = await post(t.app, '/rest/auth/admin/login', {
      username: uniqueEmail(),
      password: 'nope-nope',
    });
    const dbWrong = await post(t.app, '/rest/auth/customer/login', {
      username: uniqueEmail(),
      password: 'x',
    });
    for (const res of [wrong, unknown, dbWrong]) {
      assert.equal(res.statusCode, 401);
      assert.equal(res.json().error.code, 'INVALID_CREDENTIALS');
    }
    assert.equal(wrong.body, unknown.body);
    assert.equal(unknown.body, dbWrong.body);
  });

  test('when an unknown e-mail logs in, then it costs a hash verification like a wrong password', async () => {
    const customer = await registerCustomer(t.app);
    const time = async (username: string) => {
      const started = process.hrtime.bigint();
      await post(t.app, '/rest/auth/customer/login', { username, password: 'wrong-password' });
      return Number(process.hrtime.bigint() - started) / 1e6;
    };
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 5; i++) {
      known.push(await time(customer.email));
      unknown.push(await time(uniqueEmail()));
    }
    // argon2id (19 MiB, t=2) dominates both; without the dummy check the unknown case would be ~10x faster.
    assert.ok(
      median(unknown) > median(known) * 0.5,
      `unknown ${median(unknown)} ms vs known ${median(known)} ms`,
    );
  });

  test('when a customer logs in by e-mail in any case, then sub is the customer id', async () => {
    const customer = await registerCustomer(t.app);
    const res = await post(t.app, '/rest/auth/customer/login', {
      email: customer.email.toUpperCase(),
      password: customer.password,
    });
    assert.equal(res.statusCode, 200);
    const claims = decodeJwt(res.json().access_token);
    assert.equal(claims.ctx, 'customer');
    const me = await get(t.app, '/rest/auth/customer/me', res.json().access_token);
    assert.equal(me.json().data.id, Number(claims.sub));
    assert.equal(me.json().data.email, customer.email);
  });

  test('when a customer logs in at the admin endpoint, then 401 INVALID_CREDENTIALS', async () => {
    const customer = await registerCustomer(t.app);
    const res = await post(t.app, '/rest/auth/admin/login', {
      username: customer.email,
      password: customer.password,
    });
    assert.equal(res.statusCode, 401);
    assert.equal(res.json().error.code, 'INVALID_CREDENTIALS');
  });

  test('when an account is disabled, then the right password is refused like a wrong one', async () => {
    const admin = await createAdmin(t.app, rootToken, { roles: [3], active: false });
    const res = await post(t.app, '/rest/auth/admin/login', {
      username: admin.username,
      password: admin.password,
    });
    assert.equal(res.statusCode, 401);
    assert.equal(res.json().error.code, 'INVALID_CREDENTIALS');

    const customer = await registerCustomer(t.app);
    await t.database.db.execute(sql`update customer set active = false where email = ${customer.email}`);
    const refused = await post(t.app, '/rest/auth/customer/login', {
      username: customer.email,
      password: customer.password,
    });
    assert.equal(refused.statusCode, 401);
    assert.equal(refused.body, res.body);
  });

  test('when neither username nor email is sent, or the body has unknown fields, then 400', async () => {
    const missing = await post(t.app, '/rest/auth/admin/login', { password: 'x' });
    assert.equal(missing.statusCode, 400);
    assert.equal(missing.json().error.code, 'VALIDATION_FAILED');
    const extra = await post(t.app, '/rest/auth/admin/login', {
      username: 'a@b.c',
      password: 'x',
      admin: true,
    });
    assert.equal(extra.statusCode, 400);
  });
});
