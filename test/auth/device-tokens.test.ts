import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { ROOT, registerCustomer } from './auth-helpers.ts';

// The shipped figures: 10 failures per account and address, 100 per account from every address.
// Behind the service's own proxy (trustProxy), X-Forwarded-For names the client.
const LIMITS = {
  enabled: true,
  loginPerAccount: 10,
  loginPerAccountAllIps: 100,
  loginPerIp: 1000,
  windowSeconds: 60,
};
const STRANGER_ADDRESSES = LIMITS.loginPerAccountAllIps / LIMITS.loginPerAccount;

let ipCounter = 0;
function freshIp(): string {
  ipCounter += 1;
  return `203.0.${Math.floor(ipCounter / 250)}.${ipCounter % 250}`;
}

function assertRateLimited(res: LightMyRequestResponse): void {
  assert.equal(res.statusCode, 429, res.body);
  assert.equal(res.json().error.code, 'RATE_LIMITED');
  assert.ok(Number(res.headers['retry-after']) > 0);
}

type Ctx = 'admin' | 'customer';

describe('device tokens: strangers do not lock the owner out', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ config: { trustProxy: true, staticUsers: [ROOT], rateLimit: LIMITS } });
  });
  after(async () => t.close());

  const login = (ctx: Ctx, ip: string, username: string, password: string, deviceToken?: string) =>
    t.app.inject({
      method: 'POST',
      url: `/rest/auth/${ctx}/login`,
      headers: { 'x-forwarded-for': ip, ...(deviceToken ? { 'x-device-token': deviceToken } : {}) },
      payload: { username, password },
    });

  /** The device token the owner's earlier login answered. */
  async function deviceOf(ctx: Ctx, username: string, password: string): Promise<string> {
    const res = await login(ctx, freshIp(), username, password);
    assert.equal(res.statusCode, 200, res.body);
    const token = res.json().device_token;
    assert.equal(typeof token, 'string');
    return token;
  }

  /** 100 wrong passwords from 10 addresses: the account-wide allowance is spent. */
  async function strangersFail(ctx: Ctx, username: string): Promise<void> {
    await Promise.all(
      Array.from({ length: STRANGER_ADDRESSES }, async () => {
        const ip = freshIp();
        for (let i = 0; i < LIMITS.loginPerAccount; i++)
          assert.equal((await login(ctx, ip, username, `guess-${i}`)).statusCode, 401);
      }),
    );
    assertRateLimited(await login(ctx, freshIp(), username, 'one-more-guess'));
  }

  for (const ctx of ['customer', 'admin'] as const) {
    describe(`${ctx} login`, () => {
      let owner: { username: string; password: string };
      let device: string;
      let otherDevice: string;
      before(async () => {
        if (ctx === 'admin') owner = ROOT;
        else {
          const customer = await registerCustomer(t.app);
          owner = { username: customer.email, password: customer.password };
        }
        device = await deviceOf(ctx, owner.username, owner.password);
        // A valid device token of another account (a customer's: for the admin login, also of the other context).
        const other = await registerCustomer(t.app);
        otherDevice = await deviceOf('customer', other.email, other.password);
        await strangersFail(ctx, owner.username);
      });

      test(`when strangers fail 100 times from 10 addresses, then the owner's known device logs in (${ctx}) and an unknown one gets 429`, async () => {
        assertRateLimited(await login(ctx, freshIp(), owner.username, owner.password));
        const known = await login(ctx, freshIp(), owner.username, owner.password, device);
        assert.equal(known.statusCode, 200, known.body);
        assert.ok(known.json().access_token);
        const renewed = known.json().device_token;
        assert.equal((await login(ctx, freshIp(), owner.username, owner.password, renewed)).statusCode, 200);
        assertRateLimited(await login(ctx, freshIp(), owner.username, owner.password));
      });

      test(`when the device token is forged, of another account or garbage, then it exempts nothing (${ctx})`, async () => {
        const [header, payload, signature] = device.split('.');
        const flipped = `${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
        const forged = [header, payload, flipped].join('.');
        for (const token of [forged, otherDevice, 'not-a-token']) {
          assertRateLimited(await login(ctx, freshIp(), owner.username, owner.password, token));
        }
      });
    });
  }
});
