import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type JWTPayload, SignJWT } from 'jose';
import { startTestApp, TEST_SECRET, type TestApp } from '../helpers/app.ts';
import { get, login, ROOT, registerCustomer } from './auth-helpers.ts';

const ISSUER = 'shop-rest-api';
const ADMIN_ROUTE = '/rest/system/admin-user';
const ADMIN_ME = '/rest/auth/admin/me';
const CUSTOMER_ME = '/rest/auth/customer/me';

function b64(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** The session of the ROOT admin's login: forged tokens name it, so only what the case changes differs. */
let rootSid = 0;

/** An access token as the service would sign it, with any part overridable. */
async function forge(
  options: {
    payload?: JWTPayload;
    alg?: string;
    secret?: string;
    iss?: string;
    aud?: string;
    expSeconds?: number;
  } = {},
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ ctx: 'admin', typ: 'access', roles: [1], sid: rootSid, ...options.payload })
    .setProtectedHeader({ alg: options.alg ?? 'HS256', typ: 'JWT' })
    .setSubject('static:root@example.com')
    .setIssuer(options.iss ?? ISSUER)
    .setAudience(options.aud ?? `${ISSUER}:admin`)
    .setIssuedAt(now - 60)
    .setExpirationTime(now + (options.expSeconds ?? 600))
    .setJti(crypto.randomUUID())
    .sign(new TextEncoder().encode(options.secret ?? TEST_SECRET));
}

describe('access tokens', () => {
  let t: TestApp;
  let adminToken: string;
  let customer: { access_token: string; refresh_token: string };

  before(async () => {
    t = await startTestApp({ config: { staticUsers: [ROOT] } });
    adminToken = (await login(t.app, 'admin', ROOT.username, ROOT.password)).access_token;
    rootSid = JSON.parse(Buffer.from(adminToken.split('.')[1], 'base64url').toString()).sid;
    customer = await registerCustomer(t.app);
  });
  after(() => t.close());

  async function expect401(token: string, code = 'UNAUTHENTICATED', url = ADMIN_ME): Promise<void> {
    const res = await get(t.app, url, token);
    assert.equal(res.statusCode, 401, res.body);
    assert.equal(res.json().error.code, code);
  }

  test('when a forged token is signed exactly like ours, then it is accepted (the baseline of the cases below)', async () => {
    assert.equal((await get(t.app, ADMIN_ME, await forge())).statusCode, 200);
  });

  test('when an admin token calls a customer-only route, then 403 FORBIDDEN', async () => {
    const res = await get(t.app, CUSTOMER_ME, adminToken);
    assert.equal(res.statusCode, 403);
    assert.equal(res.json().error.code, 'FORBIDDEN');
  });

  test('when a customer token calls an admin route, then 403 FORBIDDEN', async () => {
    for (const url of [ADMIN_ROUTE, ADMIN_ME]) {
      const res = await get(t.app, url, customer.access_token);
      assert.equal(res.statusCode, 403);
      assert.equal(res.json().error.code, 'FORBIDDEN');
    }
  });

  test('when no token is sent to a protected route, then 401 UNAUTHENTICATED', async () => {
    const res = await get(t.app, ADMIN_ROUTE);
    assert.equal(res.statusCode, 401);
    assert.equal(res.json().error.code, 'UNAUTHENTICATED');
  });

  test('when a refresh token is used as a bearer token, then 401', async () => {
    await expect401(customer.refresh_token, 'UNAUTHENTICATED', CUSTOMER_ME);
  });

  test('when a token says alg none, then 401', async () => {
    const now = Math.floor(Date.now() / 1000);
    const payload = { sub: 'static:root@example.com', ctx: 'admin', typ: 'access', roles: [1], iss: ISSUER };
    const claims = { ...payload, aud: `${ISSUER}:admin`, iat: now, exp: now + 600, jti: 'x' };
    await expect401(`${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`);
  });

  test('when a token is signed with HS512 and the right secret, then 401 (the algorithm is pinned)', async () => {
    await expect401(await forge({ alg: 'HS512' }));
  });

  test('when a token is signed with another key, then 401', async () => {
    await expect401(await forge({ secret: 'another-secret-that-is-also-long-enough-0123456789' }));
  });

  test('when the payload is tampered with after signing, then 401', async () => {
    const [header, payload, signature] = adminToken.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const tampered = b64({ ...claims, roles: [1, 2, 3, 4, 5, 6, 7, 8, 9], sub: 'static:someone-else' });
    await expect401(`${header}.${tampered}.${signature}`);
    const customerParts = customer.access_token.split('.');
    const promoted = b64({
      ...JSON.parse(Buffer.from(customerParts[1], 'base64url').toString()),
      ctx: 'admin',
    });
    await expect401(`${customerParts[0]}.${promoted}.${customerParts[2]}`);
  });

  test('when a token expired longer ago than the leeway, then 401 TOKEN_EXPIRED; within it, accepted', async () => {
    await expect401(await forge({ expSeconds: -60 }), 'TOKEN_EXPIRED');
    assert.equal((await get(t.app, ADMIN_ME, await forge({ expSeconds: -2 }))).statusCode, 200);
  });

  test('when the issuer or the audience is wrong, then 401', async () => {
    await expect401(await forge({ iss: 'someone-else' }));
    await expect401(await forge({ aud: 'someone-else' }));
    // A customer-audience token claiming the admin context.
    await expect401(await forge({ aud: `${ISSUER}:customer` }));
  });

  test('when a token lacks typ access, then 401', async () => {
    await expect401(await forge({ payload: { typ: 'refresh' } }));
  });

  test('when a token is invalid on a public route, then 401 too, never a silent guest', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/rest/auth/customer/login',
      headers: { authorization: 'Bearer not.a.token' },
      payload: { username: 'x@example.com', password: 'whatever' },
    });
    assert.equal(res.statusCode, 401);
    assert.equal(res.json().error.code, 'UNAUTHENTICATED');
  });
});
