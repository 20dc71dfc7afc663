import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { bearer } from '../helpers/app.ts';
import { createAdmin, login as loginPair, ROOT, registerCustomer, uniqueEmail } from './auth-helpers.ts';

// Failed logins are counted per (account, address) and per account from every address, or per
// device token for a known device; successes never count. Small limits keep the test fast; the
// per-IP request limit is set out of the way.
const LIMITS = {
  enabled: true,
  loginPerAccount: 3,
  loginPerAccountAllIps: 6,
  loginPerDevice: 2,
  loginPerIp: 1000,
  windowSeconds: 60,
};

let ipCounter = 0;
/** A client address of its own per use, so counters of different tests never meet. */
function freshIp(): string {
  ipCounter += 1;
  return `10.2.${Math.floor(ipCounter / 250)}.${ipCounter % 250}`;
}

function assertRateLimited(res: LightMyRequestResponse): void {
  assert.equal(res.statusCode, 429, res.body);
  assert.equal(res.json().error.code, 'RATE_LIMITED');
  const retryAfter = Number(res.headers['retry-after']);
  assert.ok(retryAfter > 0 && retryAfter <= LIMITS.windowSeconds, `Retry-After ${retryAfter}`);
}

describe('failed logins per account and address', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ config: { staticUsers: [ROOT], rateLimit: LIMITS } });
  });
  after(async () => t.close());

  const login = (ctx: 'admin' | 'customer', ip: string, username: string, password: string) =>
    t.app.inject({
      method: 'POST',
      url: `/rest/auth/${ctx}/login`,
      remoteAddress: ip,
      payload: { username, password },
    });

  test('when a stranger fails 3 times from address A, then A is refused even with the right password, and the owner at B logs in', async () => {
    const owner = await registerCustomer(t.app);
    const stranger = freshIp();
    for (let i = 0; i < LIMITS.loginPerAccount; i++)
      assert.equal((await login('customer', stranger, owner.email, 'wrong-guess')).statusCode, 401);
    assertRateLimited(await login('customer', stranger, owner.email, 'wrong-guess'));
    assertRateLimited(await login('customer', stranger, owner.email, owner.password));
    const home = await login('customer', freshIp(), owner.email, owner.password);
    assert.equal(home.statusCode, 200, 'the owner elsewhere is not locked out');
  });

  test('when the owner logs in at A after failures, then A starts again from zero', async () => {
    const owner = await registerCustomer(t.app);
    const ip = freshIp();
    for (let i = 0; i < LIMITS.loginPerAccount - 1; i++)
      assert.equal((await login('customer', ip, owner.email, 'typo')).statusCode, 401);
    assert.equal((await login('customer', ip, owner.email, owner.password)).statusCode, 200);
    for (let i = 0; i < LIMITS.loginPerAccount; i++)
      assert.equal((await login('customer', ip, owner.email, 'typo')).statusCode, 401, `failure ${i + 1}`);
    assertRateLimited(await login('customer', ip, owner.email, 'typo'));
  });

  test('when the right password is given again and again, then successes never count', async () => {
    const owner = await registerCustomer(t.app);
    const ip = freshIp();
    for (let i = 0; i < LIMITS.loginPerAccountAllIps + 2; i++)
      assert.equal((await login('customer', ip, owner.email, owner.password)).statusCode, 200);
  });

  test('when failures are spread over many addresses, then at 6 the account refuses everyone, the right password from a new address included', async () => {
    const owner = await registerCustomer(t.app);
    for (let i = 0; i < LIMITS.loginPerAccountAllIps; i++)
      assert.equal((await login('customer', freshIp(), owner.email, 'spray')).statusCode, 401);
    assertRateLimited(await login('customer', freshIp(), owner.email, owner.password));
    assertRateLimited(await login('customer', freshIp(), owner.email.toUpperCase(), owner.password));
  });

  test('when an admin account is tried, then the same rules hold, and the customer context counts apart', async () => {
    const stranger = freshIp();
    for (let i = 0; i < LIMITS.loginPerAccount; i++)
      assert.equal((await login('admin', stranger, ROOT.username, 'wrong')).statusCode, 401);
    assertRateLimited(await login('admin', stranger, ` ${ROOT.username.toUpperCase()} `, ROOT.password));
    assert.equal((await login('admin', freshIp(), ROOT.username, ROOT.password)).statusCode, 200);
    const otherContext = await login('customer', stranger, ROOT.username, 'wrong');
    assert.equal(otherContext.statusCode, 401, 'customer logins of the same name are counted apart');
  });

  test('when an unknown account is tried, then it is refused alike after 3 failures (no hint that it does not exist)', async () => {
    const ip = freshIp();
    const nobody = uniqueEmail('nobody');
    for (let i = 0; i < LIMITS.loginPerAccount; i++)
      assert.equal((await login('customer', ip, nobody, 'x-x-x-x')).statusCode, 401);
    assertRateLimited(await login('customer', ip, nobody, 'x-x-x-x'));
  });

  test('when a known device fails 2 times, then its token counts as unknown: with the account refused everywhere, it gets 429 too', async () => {
    const owner = await registerCustomer(t.app);
    const first = await login('customer', freshIp(), owner.email, owner.password);
    const device: string = first.json().device_token;
    for (let i = 0; i < LIMITS.loginPerAccountAllIps; i++)
      assert.equal((await login('customer', freshIp(), owner.email, 'spray')).statusCode, 401);
    const withDevice = (password: string) =>
      t.app.inject({
        method: 'POST',
        url: '/rest/auth/customer/login',
        remoteAddress: freshIp(),
        headers: { 'x-device-token': device },
        payload: { username: owner.email, password },
      });
    for (let i = 0; i < LIMITS.loginPerDevice; i++)
      assert.equal((await withDevice('typo')).statusCode, 401, `device failure ${i + 1}`);
    assertRateLimited(await withDevice(owner.password));
  });

  test('when wrong current passwords go to the e-mail change, the password change and the login, then they count together: the 4th at that address is 429, the right password too', async () => {
    const owner = await registerCustomer(t.app);
    const ip = freshIp();
    const asOwner = (method: 'PATCH' | 'POST', url: string, payload: object) =>
      t.app.inject({ method, url, remoteAddress: ip, headers: bearer(owner.access_token), payload });
    const changeEmail = (currentPassword: string) =>
      asOwner('PATCH', '/rest/auth/customer/me', { email: uniqueEmail('moved'), currentPassword });
    assert.equal((await login('customer', ip, owner.email, 'wrong-1')).statusCode, 401);
    assert.equal((await changeEmail('wrong-2')).statusCode, 401);
    const change = { currentPassword: 'wrong-3', newPassword: 'another-password' };
    assert.equal((await asOwner('POST', '/rest/auth/customer/password', change)).statusCode, 401);
    assertRateLimited(await changeEmail(owner.password));
    const rightChange = { currentPassword: owner.password, newPassword: 'another-password' };
    assertRateLimited(await asOwner('POST', '/rest/auth/customer/password', rightChange));
    assertRateLimited(await login('customer', ip, owner.email, owner.password));
    assert.equal((await login('customer', freshIp(), owner.email, owner.password)).statusCode, 200);
  });

  test("when an admin's current password is guessed 3 times, then the admin password change is 429, the right password too, and so is that admin's login there", async () => {
    const root = await loginPair(t.app, 'admin', ROOT.username, ROOT.password);
    const admin = await createAdmin(t.app, root.access_token, { roles: [5] });
    const { access_token } = await loginPair(t.app, 'admin', admin.username, admin.password);
    const ip = freshIp();
    const changePassword = (currentPassword: string) =>
      t.app.inject({
        method: 'POST',
        url: '/rest/auth/admin/password',
        remoteAddress: ip,
        headers: bearer(access_token),
        payload: { currentPassword, newPassword: 'new-admin-password' },
      });
    for (let i = 0; i < LIMITS.loginPerAccount; i++)
      assert.equal((await changePassword(`guess-${i}`)).statusCode, 401);
    assertRateLimited(await changePassword(admin.password));
    assertRateLimited(await login('admin', ip, admin.username, admin.password));
  });
});
