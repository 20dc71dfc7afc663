import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import { adminUsers } from '../../src/modules/auth/auth.tables.ts';
import { customerAccountToken } from '../../src/modules/customers/account-tokens.tables.ts';
import { hashPassword } from '../../src/modules/auth/passwords.ts';
import { type TestApp, startTestApp } from '../helpers/app.ts';
import { setStoredSetting } from '../helpers/catalog-factories.ts';
import { readMail, startSmtpReceiver } from '../helpers/smtp-receiver.ts';
import { fillCart, makeProduct, makeTransport, placeOrder } from '../checkout/fixtures.ts';
import { get, login, post, registerCustomer, ROOT, uniqueEmail } from './auth-helpers.ts';

const jobs = {
  enabled: true,
  retryBaseMs: 50,
  retryMaxMs: 200,
  relayIntervalMs: 50,
  pollIntervalSeconds: 0.5,
};

function patch(t: TestApp, url: string, payload: unknown, token: string) {
  return t.app.inject({
    method: 'PATCH',
    url,
    payload: payload as object,
    headers: { authorization: `Bearer ${token}` },
  });
}

/** The single-use code of the latest message to `to` whose subject matches. */
async function codeFrom(
  smtp: Awaited<ReturnType<typeof startSmtpReceiver>>,
  to: string,
  subject: RegExp,
  count = 1,
): Promise<string> {
  const messages = await smtp.messagesTo(to, count);
  const mail = messages
    .map((m) => readMail(m.raw))
    .filter((m) => subject.test(m.subject))
    .at(-1);
  assert.ok(mail, `a message "${subject}" to ${to}`);
  const code = /^([A-Za-z0-9_-]{43})\r?$/m.exec(mail.text)?.[1];
  assert.ok(code, `a code in: ${mail.text}`);
  assert.ok(mail.html.includes(code));
  return code;
}

describe('customer self-service through HTTP and a real SMTP server', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;

  before(async () => {
    smtp = await startSmtpReceiver();
    t = await startTestApp({ config: { jobs, mail: { smtpUrl: smtp.url }, staticUsers: [ROOT] } });
  });
  after(async () => {
    await t.close();
    await smtp.close();
  });

  test('when a reset is confirmed with the e-mailed code, then the new password works, every session ends and the code is spent', async () => {
    const customer = await registerCustomer(t.app);
    const requested = await post(t.app, '/rest/auth/customer/password-reset', {
      email: ` ${customer.email.toUpperCase()} `,
    });
    assert.equal(requested.statusCode, 202);
    const code = await codeFrom(smtp, customer.email, /Reset your password/, 2);
    const confirmed = await post(t.app, '/rest/auth/customer/password-reset/confirm', {
      token: code,
      password: 'a-brand-new-password',
    });
    assert.equal(confirmed.statusCode, 200, confirmed.body);
    assert.equal((await get(t.app, '/rest/auth/customer/me', customer.access_token)).statusCode, 401);
    const refreshed = await post(t.app, '/rest/auth/customer/refresh', {
      refresh_token: customer.refresh_token,
    });
    assert.equal(refreshed.statusCode, 401);
    await login(t.app, 'customer', customer.email, 'a-brand-new-password');
    const again = await post(t.app, '/rest/auth/customer/password-reset/confirm', {
      token: code,
      password: 'yet-another-password',
    });
    assert.equal(again.statusCode, 400);
    assert.equal(again.json().error.code, 'TOKEN_INVALID');
  });

  test('when the address is unknown, then the answer is the same 202 and no e-mail is sent', async () => {
    const email = uniqueEmail('nobody');
    const res = await post(t.app, '/rest/auth/customer/password-reset', { email });
    assert.equal(res.statusCode, 202);
    assert.deepEqual(res.json(), { success: true });
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(smtp.received.filter((m) => m.to.includes(email)).length, 0);
  });

  test('when a code is expired or unknown, then 400 TOKEN_INVALID', async () => {
    const customer = await registerCustomer(t.app);
    await post(t.app, '/rest/auth/customer/password-reset', { email: customer.email });
    const code = await codeFrom(smtp, customer.email, /Reset your password/, 2);
    await t.app.db.update(customerAccountToken).set({ expiresAt: sql`now() - interval '1 minute'` });
    const expired = await post(t.app, '/rest/auth/customer/password-reset/confirm', {
      token: code,
      password: 'whatever-password',
    });
    assert.equal(expired.statusCode, 400);
    assert.equal(expired.json().error.code, 'TOKEN_INVALID');
    const unknown = await post(t.app, '/rest/auth/customer/password-reset/confirm', {
      token: 'x'.repeat(43),
      password: 'whatever-password',
    });
    assert.equal(unknown.json().error.code, 'TOKEN_INVALID');
    // Only the hash is stored.
    const stored = await t.app.db.select({ hash: customerAccountToken.tokenHash }).from(customerAccountToken);
    assert.ok(stored.every((r) => r.hash !== code && /^[0-9a-f]{64}$/.test(r.hash)));
  });

  test('when a customer edits the profile, then names, phone and newsletter change; a new email needs the current password and a free address', async () => {
    const customer = await registerCustomer(t.app);
    const other = await registerCustomer(t.app);
    const changed = await patch(
      t,
      '/rest/auth/customer/me',
      { firstName: 'Grace', phone: '+30 210 1234567', newsletter: true },
      customer.access_token,
    );
    assert.equal(changed.statusCode, 200, changed.body);
    assert.equal(changed.json().data.firstName, 'Grace');
    assert.equal(changed.json().data.newsletter, true);
    const newEmail = uniqueEmail('moved');
    const withoutPassword = await patch(
      t,
      '/rest/auth/customer/me',
      { email: newEmail },
      customer.access_token,
    );
    assert.equal(withoutPassword.statusCode, 400);
    const wrongPassword = await patch(
      t,
      '/rest/auth/customer/me',
      { email: newEmail, currentPassword: 'not-it' },
      customer.access_token,
    );
    assert.equal(wrongPassword.statusCode, 401);
    const taken = await patch(
      t,
      '/rest/auth/customer/me',
      { email: other.email.toUpperCase(), currentPassword: customer.password },
      customer.access_token,
    );
    assert.equal(taken.statusCode, 409);
    assert.equal(taken.json().error.code, 'EMAIL_TAKEN');
    const moved = await patch(
      t,
      '/rest/auth/customer/me',
      { email: newEmail, currentPassword: customer.password },
      customer.access_token,
    );
    assert.equal(moved.statusCode, 200, moved.body);
    await login(t.app, 'customer', newEmail, customer.password);
    const readOnly = await patch(t, '/rest/auth/customer/me', { loyaltyPoints: 1000 }, customer.access_token);
    assert.equal(readOnly.statusCode, 400);
  });

  test('when e-mail verification is required, then place-order is 403 EMAIL_NOT_VERIFIED until the e-mailed code is confirmed', async () => {
    await setStoredSetting(t.app.db, 'require_email_verification', true);
    try {
      const customer = await registerCustomer(t.app);
      const transportId = await makeTransport(t.app.db);
      const product = await makeProduct(t.app.db);
      await fillCart(t.app, { token: customer.access_token }, [[product, 1]]);
      const refused = await placeOrder(t.app, { token: customer.access_token }, { transportId });
      assert.equal(refused.statusCode, 403);
      assert.equal(refused.json().error.code, 'EMAIL_NOT_VERIFIED');
      const code = await codeFrom(smtp, customer.email, /Confirm your e-mail address/, 2);
      const verified = await post(t.app, '/rest/auth/customer/verify-email', { token: code });
      assert.equal(verified.statusCode, 200, verified.body);
      const placed = await placeOrder(t.app, { token: customer.access_token }, { transportId });
      assert.equal(placed.statusCode, 201, placed.body);
      const reused = await post(t.app, '/rest/auth/customer/verify-email', { token: code });
      assert.equal(reused.json().error.code, 'TOKEN_INVALID');
    } finally {
      await setStoredSetting(t.app.db, 'require_email_verification', false);
    }
  });

  test('when e-mail verification is required and a verified customer changes the address, then the new one is confirmed before the next order', async () => {
    await setStoredSetting(t.app.db, 'require_email_verification', true);
    try {
      const customer = await registerCustomer(t.app);
      const first = await codeFrom(smtp, customer.email, /Confirm your e-mail address/, 2);
      assert.equal((await post(t.app, '/rest/auth/customer/verify-email', { token: first })).statusCode, 200);
      const newEmail = uniqueEmail('moved');
      const changed = await patch(
        t,
        '/rest/auth/customer/me',
        { email: newEmail, currentPassword: customer.password },
        customer.access_token,
      );
      assert.equal(changed.statusCode, 200, changed.body);
      const transportId = await makeTransport(t.app.db);
      const product = await makeProduct(t.app.db);
      await fillCart(t.app, { token: customer.access_token }, [[product, 1]]);
      const refused = await placeOrder(t.app, { token: customer.access_token }, { transportId });
      assert.equal(refused.json().error?.code, 'EMAIL_NOT_VERIFIED', refused.body);
      const second = await codeFrom(smtp, newEmail, /Confirm your e-mail address/, 1);
      assert.equal(
        (await post(t.app, '/rest/auth/customer/verify-email', { token: second })).statusCode,
        200,
      );
      const placed = await placeOrder(t.app, { token: customer.access_token }, { transportId });
      assert.equal(placed.statusCode, 201, placed.body);
    } finally {
      await setStoredSetting(t.app.db, 'require_email_verification', false);
    }
  });

  test('when an admin changes the own password, then the old sessions end and the new password logs in; a configured admin gets 422', async () => {
    const username = uniqueEmail('admin');
    await t.app.db
      .insert(adminUsers)
      .values({ username, passwordHash: await hashPassword('old-admin-password'), roles: [3] });
    const pair = await login(t.app, 'admin', username, 'old-admin-password');
    const wrong = await post(
      t.app,
      '/rest/auth/admin/password',
      { currentPassword: 'nope', newPassword: 'new-admin-password' },
      pair.access_token,
    );
    assert.equal(wrong.statusCode, 401);
    const changed = await post(
      t.app,
      '/rest/auth/admin/password',
      { currentPassword: 'old-admin-password', newPassword: 'new-admin-password' },
      pair.access_token,
    );
    assert.equal(changed.statusCode, 200, changed.body);
    assert.equal((await get(t.app, '/rest/auth/admin/me', pair.access_token)).statusCode, 401);
    await login(t.app, 'admin', username, 'new-admin-password');
    const root = await login(t.app, 'admin', ROOT.username, ROOT.password);
    const configured = await post(
      t.app,
      '/rest/auth/admin/password',
      { currentPassword: ROOT.password, newPassword: 'new-root-password' },
      root.access_token,
    );
    assert.equal(configured.statusCode, 422);
    await t.app.db.delete(adminUsers).where(eq(adminUsers.username, username));
  });
});

describe('password-reset limits', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ config: { rateLimit: { enabled: true } } });
  });
  after(async () => t.close());

  test('when one address is asked for a 6th time within the hour, then 429 with Retry-After, known or not', async () => {
    const email = uniqueEmail('limited');
    for (let i = 0; i < 5; i++) {
      assert.equal((await post(t.app, '/rest/auth/customer/password-reset', { email })).statusCode, 202);
    }
    const sixth = await post(t.app, '/rest/auth/customer/password-reset', { email });
    assert.equal(sixth.statusCode, 429);
    assert.ok(Number(sixth.headers['retry-after']) > 900, 'counted over an hour');
  });

  test('when one IP asks for 21 different addresses within the hour, then the 21st is 429', async () => {
    const answers: number[] = [];
    for (let i = 0; i < 21; i++) {
      answers.push(
        (await post(t.app, '/rest/auth/customer/password-reset', { email: uniqueEmail('ip') })).statusCode,
      );
    }
    // The first test's six requests came from the same address: its allowance is already shorter.
    assert.ok(answers.includes(429));
    assert.equal(answers.at(-1), 429);
  });
});
