import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type App, buildApp, loggerOptions } from '../../src/app.ts';
import { testConfig } from '../helpers/app.ts';
import { adminHeaders, createProduct } from '../helpers/catalog-factories.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { bothPaths, headersApartFromIdAndDate, listening } from '../helpers/early-hits.ts';

// A guest's hit answered before Fastify (src/resources/early-hits.ts), over a real socket: the
// same answer as Fastify's path, with the request's own id, security and CORS headers, logged and
// measured like any request; anything not certainly a guest's kept GET goes to Fastify.

const SHOP = 'https://shop.example.com';
const METRICS_TOKEN = 'metrics-token-for-the-early-hits-test-0123';
type Line = Record<string, unknown>;

async function startListening(config: Record<string, unknown>, lines: Line[]) {
  const testDatabase = await createTestDatabase();
  const stream = { write: (line: string) => void lines.push(JSON.parse(line) as Line) };
  const app = await buildApp({
    config: testConfig(config),
    database: testDatabase.database,
    logger: loggerOptions('info', stream),
  });
  return { app, testDatabase };
}

describe('a guest hit answered before Fastify', () => {
  let app: App;
  let testDatabase: TestDatabase;
  let base: string;
  const lines: Line[] = [];

  before(async () => {
    ({ app, testDatabase } = await startListening(
      { cors: { origins: [SHOP] }, metrics: { token: METRICS_TOKEN } },
      lines,
    ));
    await app.ready();
    base = await listening(app);
  });
  after(async () => {
    await app.close();
    await testDatabase.destroy();
  });

  const earlyHits = () => app.responseCache?.answers.earlyHits ?? 0;
  const productUrl = async () => `/rest/product/product/${(await createProduct(app)).id}`;

  test("when it comes with an allowed Origin, another or none, then every header but the id and date is the one of Fastify's path", async () => {
    const url = await productUrl();
    for (const origin of [SHOP, 'https://elsewhere.example', undefined]) {
      const headers: Record<string, string> = origin === undefined ? {} : { origin };
      const { fastify, early, earlyHits } = await bothPaths(app, base, url, headers);
      assert.equal(earlyHits, 1, String(origin));
      assert.deepEqual(headersApartFromIdAndDate(early), headersApartFromIdAndDate(fastify), String(origin));
      assert.equal(early.headers.get('access-control-allow-origin'), origin === SHOP ? SHOP : null);
      assert.equal(await early.text(), await fastify.text());
    }
  });

  test('when the caller sends a request id, then a valid one is echoed and another replaced', async () => {
    const url = await productUrl();
    await bothPaths(app, base, url);
    const valid = await fetch(base + url, { headers: { 'x-request-id': 'caller-id-1' } });
    assert.equal(valid.headers.get('x-request-id'), 'caller-id-1');
    const invalid = await fetch(base + url, { headers: { 'x-request-id': 'not valid!' } });
    assert.match(String(invalid.headers.get('x-request-id')), /^[0-9a-f-]{36}$/);
  });

  test("when If-None-Match names the ETag, then 304 without a body, with the headers of Fastify's 304", async () => {
    const url = await productUrl();
    const { early } = await bothPaths(app, base, url);
    const headers = { 'if-none-match': String(early.headers.get('etag')), origin: SHOP };
    const { fastify, early: notModified, earlyHits } = await bothPaths(app, base, url, headers);
    assert.equal(earlyHits, 1);
    assert.equal(notModified.status, 304);
    assert.equal(await notModified.text(), '');
    assert.deepEqual(headersApartFromIdAndDate(notModified), headersApartFromIdAndDate(fastify));
  });

  test('when a request has an Authorization header, or is not a GET, then Fastify answers it', async () => {
    const url = await productUrl();
    await bothPaths(app, base, url);
    const before = earlyHits();
    const badToken = await fetch(base + url, { headers: { authorization: 'Bearer not-a-token' } });
    assert.equal(badToken.status, 401);
    assert.equal((await badToken.json()).error.code, 'UNAUTHENTICATED');
    const head = await fetch(base + url, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(earlyHits(), before);
  });

  test('when a price is written, then the next answer over HTTP shows it', async () => {
    const product = await createProduct(app, { price: 12.5 });
    const url = `/rest/product/product/${product.id}`;
    await bothPaths(app, base, url);
    const admin = await adminHeaders(app);
    const write = await app.inject({ method: 'PATCH', url, headers: admin, payload: { price: 13.75 } });
    assert.equal(write.statusCode, 200);
    const answer = await fetch(base + url, { headers: { 'accept-language': 'en' } });
    assert.equal((await answer.json()).data.price, 13.75);
  });

  test("when a hit is answered early, then its log line has the fields of Fastify's", async () => {
    const url = await productUrl();
    const { fastify, early } = await bothPaths(app, base, url);
    await new Promise((resolve) => setTimeout(resolve, 100)); // the log's batch is written within 50 ms
    const lineOf = (res: Response) => lines.find((l) => l.reqId === res.headers.get('x-request-id'));
    const [viaFastify, viaEarly] = [lineOf(fastify), lineOf(early)];
    assert.ok(viaFastify && viaEarly);
    const { reqId: _a, time: _b, ms: fastifyMs, ...fastifyFields } = viaFastify;
    const { reqId: _c, time: _d, ms: earlyMs, ...earlyFields } = viaEarly;
    assert.deepEqual(earlyFields, fastifyFields);
    assert.deepEqual(Object.keys(viaEarly), Object.keys(viaFastify));
    assert.equal(typeof earlyMs, typeof fastifyMs);
    assert.equal(earlyFields.url, url);
  });

  test('when hits are answered early, then the request histogram counts them under their route', async () => {
    const url = await productUrl();
    await bothPaths(app, base, url);
    const count = async () => {
      const res = await app.inject({
        url: '/metrics',
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      });
      const line = res.body
        .split('\n')
        .find(
          (l) =>
            l.startsWith('http_request_duration_seconds_count{') &&
            l.includes('route="/rest/product/product/:id"') &&
            l.includes('status="200"'),
        );
      return Number(line?.slice(line.lastIndexOf(' ') + 1) ?? 0);
    };
    const before = [await count(), earlyHits()];
    for (let i = 0; i < 3; i++) await fetch(base + url, { headers: { 'accept-language': 'en' } });
    assert.equal(earlyHits() - (before[1] ?? 0), 3);
    assert.equal((await count()) - (before[0] ?? 0), 3);
  });

  test('when the service is shutting down, then Fastify answers 503 and closes the connection', async () => {
    const url = await productUrl();
    await bothPaths(app, base, url);
    app.lifecycle.shuttingDown = true;
    try {
      const res = await fetch(base + url, { headers: { 'accept-language': 'en' } });
      assert.equal(res.status, 503);
      assert.equal(res.headers.get('connection'), 'close');
    } finally {
      app.lifecycle.shuttingDown = false;
    }
  });
});

describe('a kept answer of a route with a per-IP limit', () => {
  let app: App;
  let testDatabase: TestDatabase;
  let base: string;

  before(async () => {
    ({ app, testDatabase } = await startListening(
      { rateLimit: { enabled: true }, cors: { origins: ['*'] } },
      [],
    ));
    app.get(
      '/limited-kept-read',
      { config: { cache: { tables: ['setting'] }, rateLimit: { max: 3, timeWindow: 60_000 } } },
      async () => ({ read: true }),
    );
    await app.ready();
    base = await listening(app);
  });
  after(async () => {
    await app.close();
    await testDatabase.destroy();
  });

  test('when a guest asks it past the limit, then the hit is counted and refused with the same 429', async () => {
    const ask = () => fetch(`${base}/limited-kept-read`, { headers: { 'accept-language': 'en' } });
    const hitsBefore = app.responseCache?.answers.hits ?? 0;
    // Kept from the second ask: the third is a hit.
    for (let n = 0; n < 3; n++) assert.equal((await ask()).status, 200);
    assert.equal(app.responseCache?.answers.hits, hitsBefore + 1, 'the third answer is a hit');
    const refused = await ask();
    assert.equal(refused.status, 429);
    assert.equal((await refused.json()).error.code, 'RATE_LIMITED');
    assert.ok(refused.headers.get('retry-after'));
    assert.equal(app.responseCache?.answers.earlyHits, 0);
  });

  test("when no limit applies to a kept route, then its hit is answered early with the headers of Fastify's path", async () => {
    for (const headers of [{ origin: SHOP }, {}] as Record<string, string>[]) {
      const { fastify, early, earlyHits } = await bothPaths(app, base, '/rest/v1/storefront-config', headers);
      assert.equal(earlyHits, 1);
      assert.deepEqual(headersApartFromIdAndDate(early), headersApartFromIdAndDate(fastify));
      assert.equal(early.headers.get('access-control-allow-origin'), '*');
    }
  });
});
