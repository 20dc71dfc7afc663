import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { queryRows } from '../../src/db/client.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { get, post, uniqueEmail } from './auth-helpers.ts';

const REGISTER = '/rest/auth/customer/register';

function fields(overrides: Record<string, unknown> = {}) {
  return {
    email: uniqueEmail(),
    password: 'long-enough',
    firstName: 'Grace',
    lastName: 'Hopper',
    ...overrides,
  };
}

describe('customer registration', () => {
  let t: TestApp;

  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  test('when a customer registers, then 201 answers a token pair that works at once', async () => {
    const res = await post(t.app, REGISTER, fields({ phone: '+40 700 000 000', newsletter: true }));
    assert.equal(res.statusCode, 201);
    const pair = res.json();
    assert.deepEqual(Object.keys(pair).sort(), ['access_token', 'device_token', 'refresh_token']);
    const me = await get(t.app, '/rest/auth/customer/me', pair.access_token);
    assert.equal(me.statusCode, 200);
    assert.equal(me.json().data.phone, '+40 700 000 000');
    assert.equal(me.json().data.newsletter, true);
    assert.equal(me.json().data.id, Number(decodeJwt(pair.access_token).sub));
  });

  test('when the e-mail has blanks and capitals, then it is stored trimmed and lower-cased', async () => {
    const local = uniqueEmail('Mixed').toUpperCase();
    const res = await post(t.app, REGISTER, fields({ email: `  ${local} ` }));
    assert.equal(res.statusCode, 201);
    const me = await get(t.app, '/rest/auth/customer/me', res.json().access_token);
    assert.equal(me.json().data.email, local.toLowerCase());
  });

  test('when the e-mail is already registered in another case, then 409 EMAIL_TAKEN', async () => {
    const email = uniqueEmail();
    assert.equal((await post(t.app, REGISTER, fields({ email }))).statusCode, 201);
    const again = await post(t.app, REGISTER, fields({ email: email.toUpperCase() }));
    assert.equal(again.statusCode, 409);
    assert.equal(again.json().error.code, 'EMAIL_TAKEN');
  });

  test('when 50 registrations of one address race, then exactly one succeeds and the rest get EMAIL_TAKEN', async () => {
    const email = uniqueEmail('race');
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        post(t.app, REGISTER, fields({ email: i % 2 ? email.toUpperCase() : email })),
      ),
    );
    const statuses = results.map((r) => r.statusCode);
    assert.equal(statuses.filter((s) => s === 201).length, 1, `statuses: ${statuses.join(',')}`);
    assert.equal(statuses.filter((s) => s === 409).length, 49);
    for (const r of results.filter((x) => x.statusCode === 409))
      assert.equal(r.json().error.code, 'EMAIL_TAKEN');
    const rows = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from customer where lower(email) = ${email}`,
    );
    assert.equal(rows[0].n, 1);
  });

  test('when the password has 7 or 129 characters, then 400 before any hashing; 8 and 128 pass', async () => {
    for (const password of ['x'.repeat(7), 'x'.repeat(129)]) {
      const res = await post(t.app, REGISTER, fields({ password }));
      assert.equal(res.statusCode, 400);
      assert.equal(res.json().error.details[0].field, 'password');
    }
    for (const password of ['x'.repeat(8), 'x'.repeat(128)]) {
      assert.equal((await post(t.app, REGISTER, fields({ password }))).statusCode, 201);
    }
  });

  test('when demo@example.com is registered again with an invisible character inside, then 400 naming email and no second account', async () => {
    assert.equal((await post(t.app, REGISTER, fields({ email: 'demo@example.com' }))).statusCode, 201);
    // Zero-width space, soft hyphen, word joiner, byte-order mark, a bidi override, a C1 control.
    for (const invisible of ['\u200B', '\u00AD', '\u2060', '\uFEFF', '\u202E', '\u0085']) {
      const res = await post(t.app, REGISTER, fields({ email: `de${invisible}mo@example.com` }));
      assert.equal(res.statusCode, 400, `U+${invisible.codePointAt(0)?.toString(16)}: ${res.body}`);
      assert.equal(res.json().error.code, 'VALIDATION_FAILED');
      assert.ok(res.json().error.details.some((d: { field: string }) => d.field === 'email'));
    }
    const rows = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from customer where email like 'de%mo@example.com'`,
    );
    assert.equal(rows[0].n, 1);
  });

  test('when an address is registered again in full-width letters, then it is the same address: 409 EMAIL_TAKEN', async () => {
    const local = `wide${Date.now()}`;
    assert.equal((await post(t.app, REGISTER, fields({ email: `${local}@example.com` }))).statusCode, 201);
    const fullWidth = [...local].map((c) => String.fromCodePoint((c.codePointAt(0) ?? 0) + 0xfee0)).join('');
    const again = await post(t.app, REGISTER, fields({ email: `${fullWidth}@example.com` }));
    assert.equal(again.statusCode, 409, again.body);
    assert.equal(again.json().error.code, 'EMAIL_TAKEN');
  });

  test('when a required field is missing or the e-mail is malformed, then 400 VALIDATION_FAILED naming it', async () => {
    const { lastName: _omitted, ...withoutLastName } = fields();
    const missing = await post(t.app, REGISTER, withoutLastName);
    assert.equal(missing.statusCode, 400);
    assert.ok(missing.json().error.details.some((d: { field: string }) => d.field === 'lastName'));
    const malformed = await post(t.app, REGISTER, fields({ email: 'not-an-email' }));
    assert.equal(malformed.statusCode, 400);
    assert.equal(malformed.json().error.code, 'VALIDATION_FAILED');
  });

  test('when the body carries roles, loyaltyPoints, id or active, then they are ignored and never stored', async () => {
    const email = uniqueEmail('sneaky');
    const res = await post(
      t.app,
      REGISTER,
      fields({
        email,
        roles: [1],
        loyaltyPoints: 1_000_000,
        id: 424242,
        active: false,
        passwordHash: 'x',
        ctx: 'admin',
      }),
    );
    assert.equal(res.statusCode, 201);
    const claims = decodeJwt(res.json().access_token);
    assert.equal(claims.ctx, 'customer');
    assert.equal(claims.roles, undefined);
    const me = (await get(t.app, '/rest/auth/customer/me', res.json().access_token)).json().data;
    assert.equal(me.loyaltyPoints, 0);
    assert.notEqual(me.id, 424242);
    const login = await post(t.app, '/rest/auth/customer/login', {
      username: email,
      password: 'long-enough',
    });
    assert.equal(login.statusCode, 200, 'the account is active');
  });

  test('when a customer registers, then a customer.registered event is written with the customer id', async () => {
    const res = await post(t.app, REGISTER, fields());
    const customerId = Number(decodeJwt(res.json().access_token).sub);
    const events = await queryRows<{ type: string; payload: { customerId: number } }>(
      t.database.db,
      sql`select type, payload from outbox_event where type = 'customer.registered' and (payload->>'customerId')::int = ${customerId}`,
    );
    assert.equal(events.length, 1);
    assert.deepEqual(events[0].payload, { customerId });
  });

  test('when a registration is refused as a duplicate, then no event is written for it', async () => {
    const email = uniqueEmail('dup');
    await post(t.app, REGISTER, fields({ email }));
    const before = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from outbox_event`,
    );
    assert.equal((await post(t.app, REGISTER, fields({ email }))).statusCode, 409);
    const after = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from outbox_event`,
    );
    assert.equal(after[0].n, before[0].n);
  });

  test('when the password is stored, then only an argon2id hash with its parameters is kept', async () => {
    const email = uniqueEmail('hash');
    await post(t.app, REGISTER, fields({ email }));
    const rows = await queryRows<{ password_hash: string }>(
      t.database.db,
      sql`select password_hash from customer where email = ${email}`,
    );
    assert.match(rows[0].password_hash, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });
});
