import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Writable } from 'node:stream';
import { buildApp, loggerOptions, type App } from '../../src/app.ts';
import { access } from '../../src/http/access.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { sessionToken, testConfig } from '../helpers/app.ts';

describe('errors and request ids', () => {
  let app: App;
  let testDb: TestDatabase;
  const logLines: Record<string, unknown>[] = [];

  before(async () => {
    testDb = await createTestDatabase();
    const stream = new Writable({
      write(chunk, _enc, done) {
        logLines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    app = await buildApp({
      config: testConfig(),
      database: testDb.database,
      logger: loggerOptions('info', stream),
    });
    app.get('/rest/test/boom', { config: { access: access.public() } }, async () => {
      throw new Error('select password_hash from customer where id = 1 at /work/src/secret.ts:12');
    });
    app.post('/rest/test/echo', { config: { access: access.public() } }, async (request) => ({
      success: true,
      data: request.body,
    }));
    await app.ready();
  });
  after(async () => {
    await app.close();
    await testDb.destroy();
  });

  test('when a route is unknown, then a JSON 404 envelope answers', async () => {
    const res = await app.inject({ method: 'GET', url: '/rest/nothing/here' });
    assert.equal(res.statusCode, 404);
    assert.equal(res.json().success, false);
    assert.equal(res.json().error.code, 'NOT_FOUND');
  });

  test('when the method is not served on a path, then a JSON 405 envelope answers with Allow', async () => {
    const res = await app.inject({ method: 'DELETE', url: '/health/live' });
    assert.equal(res.statusCode, 405);
    assert.equal(res.headers.allow, 'GET, HEAD');
    assert.equal(res.json().error.code, 'METHOD_NOT_ALLOWED');
  });

  test('when the JSON is malformed, then 400 VALIDATION_FAILED', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/rest/test/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"a":',
    });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().error.code, 'VALIDATION_FAILED');
  });

  test('when the content type is not JSON, then 415 with the envelope', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/rest/test/echo',
      headers: { 'content-type': 'application/xml' },
      payload: '<a/>',
    });
    assert.equal(res.statusCode, 415);
    assert.equal(res.json().error.code, 'UNSUPPORTED_MEDIA_TYPE');
  });

  test('when the body is over 1 MiB, then 413 PAYLOAD_TOO_LARGE and the server keeps serving', async () => {
    const big = JSON.stringify({ text: 'x'.repeat(1024 * 1024 + 10) });
    const res = await app.inject({
      method: 'POST',
      url: '/rest/test/echo',
      headers: { 'content-type': 'application/json' },
      payload: big,
    });
    assert.equal(res.statusCode, 413);
    assert.equal(res.json().error.code, 'PAYLOAD_TOO_LARGE');
    const next = await app.inject({ method: 'GET', url: '/health/live' });
    assert.equal(next.statusCode, 200);
  });

  test('when a handler fails unexpectedly, then 500 INTERNAL hides the message and the log has the request id', async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/rest/test/boom',
      headers: { 'x-request-id': 'trace-500-abc' },
    });
    assert.equal(res.statusCode, 500);
    assert.deepEqual(res.json(), { success: false, error: { code: 'INTERNAL', message: 'internal error' } });
    assert.doesNotMatch(res.body, /select|password|\/work|secret/);
    const logged = logLines.find((l) => l.reqId === 'trace-500-abc' && l.level === 50);
    assert.ok(logged, 'the fault is logged with the request id');
  });

  test('when a valid X-Request-Id comes in, then it is kept; an invalid one is replaced', async () => {
    const kept = await app.inject({
      method: 'GET',
      url: '/health/live',
      headers: { 'x-request-id': 'abc-123' },
    });
    assert.equal(kept.headers['x-request-id'], 'abc-123');
    const replaced = await app.inject({
      method: 'GET',
      url: '/health/live',
      headers: { 'x-request-id': 'bad id\twith spaces' },
    });
    assert.match(String(replaced.headers['x-request-id']), /^[0-9a-f-]{36}$/);
    const none = await app.inject({ method: 'GET', url: '/nope' });
    assert.ok(none.headers['x-request-id'], 'errors carry a request id too');
  });

  test('when a bearer token is garbage, then 401 even on a public route', async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/rest/test/boom',
      headers: { authorization: 'Bearer nope' },
    });
    assert.equal(res.statusCode, 401);
    assert.equal(res.json().error.code, 'UNAUTHENTICATED');
  });

  test('when a caller without access sends a bad body, then access is refused before the body is judged', async () => {
    const noToken = await app.inject({ method: 'POST', url: '/rest/system/admin-user', payload: {} });
    assert.equal(noToken.statusCode, 401);
    const customer = await sessionToken(app, { sub: '1', ctx: 'customer' });
    const asCustomer = await app.inject({
      method: 'POST',
      url: '/rest/system/admin-user',
      headers: { authorization: `Bearer ${customer}` },
      payload: { nope: true },
    });
    assert.equal(asCustomer.statusCode, 403);
  });

  test('when a request carries an Authorization header, then the log never shows it', async () => {
    await app.inject({
      method: 'GET',
      url: '/health/live',
      headers: { authorization: 'Bearer secret-token-xyz' },
    });
    assert.ok(logLines.length > 0);
    assert.ok(!JSON.stringify(logLines).includes('secret-token-xyz'));
  });

  test('when a log entry carries passwords, refresh tokens or credential headers, then they are censored and the rest is kept', async () => {
    logLines.length = 0;
    const body = { email: 'ada@example.com', password: 'hunter2-pw', newPassword: 'n3w-secret-pw' };
    app.log.error({ body, password: 'top-secret-pw', refresh: { refresh_token: 'rt-secret-123' } }, 'failed');
    app.log.warn({
      headers: {
        authorization: 'Bearer tok-secret',
        cookie: 'sid=ck-secret',
        'x-cart-token': 'cart-secret',
        accept: 'text/html',
      },
    });
    app.log.info({ user: { passwordHash: '$argon2id$hash-secret' }, customerId: 7 }, 'plain');
    const text = JSON.stringify(logLines);
    for (const secret of [
      'hunter2-pw',
      'n3w-secret-pw',
      'top-secret-pw',
      'rt-secret-123',
      'tok-secret',
      'ck-secret',
      'cart-secret',
      'hash-secret',
    ]) {
      assert.ok(!text.includes(secret), `${secret} leaked`);
    }
    const [failed, warned, plain] = logLines;
    assert.deepEqual(failed.body, {
      email: 'ada@example.com',
      password: '[redacted]',
      newPassword: '[redacted]',
    });
    assert.equal(failed.password, '[redacted]');
    assert.equal((warned.headers as Record<string, string>).accept, 'text/html');
    assert.equal(plain.customerId, 7);
    assert.deepEqual(body.password, 'hunter2-pw', 'the logged object itself is not changed');
  });
});
