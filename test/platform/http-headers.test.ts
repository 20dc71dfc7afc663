import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';

describe('security and CORS headers', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ config: { cors: { origins: ['https://shop.example.com'] } } });
  });
  after(() => t.close());

  test('when any answer is sent, then helmet headers are on it', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/health/live' });
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.ok(res.headers['strict-transport-security']);
    assert.equal(res.headers['x-frame-options'], 'SAMEORIGIN');
  });

  test('when a configured origin calls, then CORS allows it and exposes the cart, request id and retry headers', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/health/live',
      headers: { origin: 'https://shop.example.com' },
    });
    assert.equal(res.headers['access-control-allow-origin'], 'https://shop.example.com');
    const exposed = String(res.headers['access-control-expose-headers']).toLowerCase();
    for (const h of ['x-cart-token', 'x-request-id', 'retry-after']) assert.ok(exposed.includes(h), h);
  });

  test('when a preflight asks for the cart token header, then it is allowed', async () => {
    const res = await t.app.inject({
      method: 'OPTIONS',
      url: '/health/live',
      headers: {
        origin: 'https://shop.example.com',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,x-cart-token,idempotency-key',
      },
    });
    assert.equal(res.statusCode, 204);
    assert.match(String(res.headers['access-control-allow-headers']), /X-Cart-Token/i);
  });

  test('when another origin calls, then no CORS allowance is given', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/health/live',
      headers: { origin: 'https://evil.example' },
    });
    assert.equal(res.headers['access-control-allow-origin'], undefined);
  });
});
