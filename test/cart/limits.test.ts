import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { adminToken, call, fillCart, makeCustomer, makeProduct } from '../checkout/fixtures.ts';

function assertLimitReached(res: LightMyRequestResponse): void {
  assert.equal(res.statusCode, 422, res.body);
  assert.equal(res.json().error.code, 'LIMIT_REACHED');
}

function lineQty(res: LightMyRequestResponse, productId: number): number | undefined {
  const lines = res.json().data.lines as { productId: number; qty: number }[];
  return lines.find((l) => l.productId === productId)?.qty;
}

describe('cart: a line holds at most cart_max_line_qty units', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(async () => t.close());

  test('when a line would pass 100 units (the default), then 422 LIMIT_REACHED, whether added at once, in steps or set', async () => {
    const p = await makeProduct(t.app.db, { stockQty: 1000 });
    assertLimitReached(await call(t.app, 'POST', '/rest/cart/items', {}, { productId: p, qty: 101 }));
    const who = await fillCart(t.app, {}, [
      [p, 60],
      [p, 40],
    ]);
    assertLimitReached(await call(t.app, 'POST', '/rest/cart/items', who, { productId: p, qty: 1 }));
    assertLimitReached(await call(t.app, 'PATCH', `/rest/cart/items/${p}`, who, { qty: 101 }));
    const lower = await call(t.app, 'PATCH', `/rest/cart/items/${p}`, who, { qty: 99 });
    assert.equal(lower.statusCode, 200);
    assert.equal(lineQty(lower, p), 99);
    const cart = await call(t.app, 'GET', '/rest/cart', who);
    assert.equal(lineQty(cart, p), 99, 'a refused write changed nothing');
  });

  test('when an admin lowers cart_max_line_qty, then the next write follows it; wrong values are 400', async () => {
    const admin = { token: await adminToken(t.app, [3]) };
    const put = (value: unknown) =>
      call(t.app, 'PUT', '/rest/system/setting/cart_max_line_qty', admin, { value });
    for (const bad of [0, 1000, 2.5, '5'])
      assert.equal((await put(bad)).statusCode, 400, `value ${JSON.stringify(bad)}`);
    assert.equal((await put(5)).statusCode, 200);
    try {
      const p = await makeProduct(t.app.db);
      const who = await fillCart(t.app, {}, [[p, 5]]);
      assertLimitReached(await call(t.app, 'POST', '/rest/cart/items', who, { productId: p, qty: 1 }));
      assertLimitReached(await call(t.app, 'PATCH', `/rest/cart/items/${p}`, who, { qty: 6 }));
    } finally {
      await call(t.app, 'DELETE', '/rest/system/setting/cart_max_line_qty', admin);
    }
  });

  test('when a guest cart is merged at login, then a summed line is lowered to the cap and the login succeeds', async () => {
    const p = await makeProduct(t.app.db);
    const email = `cap-${Date.now()}@example.com`;
    const password = 'a-good-password';
    const registered = await call(
      t.app,
      'POST',
      '/rest/auth/customer/register',
      {},
      {
        email,
        password,
        firstName: 'Ada',
        lastName: 'Lovelace',
      },
    );
    assert.equal(registered.statusCode, 201, registered.body);
    await fillCart(t.app, { token: registered.json().access_token }, [[p, 70]]);
    const guest = await fillCart(t.app, {}, [[p, 70]]);
    const login = await call(t.app, 'POST', '/rest/auth/customer/login', guest, {
      username: email,
      password,
    });
    assert.equal(login.statusCode, 200, login.body);
    const cart = await call(t.app, 'GET', '/rest/cart', { token: login.json().access_token });
    assert.equal(lineQty(cart, p), 100);
  });
});

describe('cart: new guest carts per address', () => {
  let t: TestApp;
  const CARTS = 3;
  before(async () => {
    t = await startTestApp({
      config: { rateLimit: { enabled: true, cartsPerIp: CARTS, windowSeconds: 60 } },
    });
  });
  after(async () => t.close());

  const add = (ip: string, productId: number, cart?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/rest/cart/items',
      remoteAddress: ip,
      headers: cart ? { 'x-cart-token': cart } : {},
      payload: { productId, qty: 1 },
    });

  test('when one address opens more carts than allowed, then the next new cart is 429 while its existing carts still take writes', async () => {
    const p = await makeProduct(t.app.db);
    const ip = '10.3.0.1';
    const tokens: string[] = [];
    for (let i = 0; i < CARTS; i++) {
      const res = await add(ip, p);
      assert.equal(res.statusCode, 200, res.body);
      tokens.push(res.headers['x-cart-token'] as string);
    }
    const refused = await add(ip, p);
    assert.equal(refused.statusCode, 429, refused.body);
    assert.equal(refused.json().error.code, 'RATE_LIMITED');
    assert.ok(Number(refused.headers['retry-after']) > 0);
    assert.equal(refused.headers['x-cart-token'], undefined, 'no cart was made');
    const unknownToken = await add(ip, p, 'U'.repeat(43));
    assert.equal(unknownToken.statusCode, 429, 'an unknown token would be a new cart: refused too');

    for (const token of tokens) {
      const more = await add(ip, p, token);
      assert.equal(more.statusCode, 200, 'an existing cart still takes writes');
      assert.equal(lineQty(more, p), 2);
      const set = await t.app.inject({
        method: 'PATCH',
        url: `/rest/cart/items/${p}`,
        remoteAddress: ip,
        headers: { 'x-cart-token': token },
        payload: { qty: 3 },
      });
      assert.equal(set.statusCode, 200);
    }
    assert.equal((await add('10.3.0.2', p)).statusCode, 200, 'another address is not limited');
  });

  test('when a customer writes, then no guest cart is made and nothing is counted', async () => {
    const p = await makeProduct(t.app.db);
    const ip = '10.3.0.3';
    for (let i = 0; i < CARTS + 2; i++) {
      const customer = await makeCustomer(t.app);
      const res = await t.app.inject({
        method: 'POST',
        url: '/rest/cart/items',
        remoteAddress: ip,
        headers: { authorization: `Bearer ${customer.token}` },
        payload: { productId: p, qty: 1 },
      });
      assert.equal(res.statusCode, 200, res.body);
    }
    assert.equal((await add(ip, p)).statusCode, 200);
  });
});
