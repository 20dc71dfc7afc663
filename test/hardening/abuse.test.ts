import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createTestDatabase, type TestDatabase, testEngine } from '../helpers/database.ts';
import { report } from '../helpers/hardening/figures.ts';
import { ROOT, uniqueEmail } from '../helpers/hardening/fixtures.ts';
import { adminLogin, http, type ServerProcess, startServer } from '../helpers/hardening/server.ts';

// Abuse against the real server process: guessing coupons, mass registration, huge pages,
// slow clients, absurdly deep JSON. Each is answered as documented, and the process's
// memory stays within +50 MB of where it started.

const LIMITS = { enabled: true, registerPerIp: 5, couponPerIp: 8, loginPerIp: 100, windowSeconds: 60 };
const REQUEST_TIMEOUT_MS = 2_000;
/** Bound of the wait for a cut; Node's own default timer alone would take 30–90 s. */
const CUT_DEADLINE_MS = 15_000;

interface Cut {
  /** When the server answered, and when it closed the socket (ms after connecting). */
  answerMs: number;
  closeMs: number;
  status: string;
}

/** Sends `head`, then one more byte every `everyMs` forever; resolves when the server hangs up. */
function dripUntilCut(port: number, head: string, tail: string, everyMs: number): Promise<Cut> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(port, '127.0.0.1');
    const started = Date.now();
    let answer = '';
    let answerMs = -1;
    let i = 0;
    socket.write(head);
    // The client keeps trickling even after the answer: only the server may end this.
    const timer = setInterval(() => {
      if (!socket.destroyed) socket.write(tail[i++ % tail.length]);
    }, everyMs);
    const giveUp = setTimeout(() => {
      clearInterval(timer);
      socket.destroy();
      reject(
        new Error(
          `the server did not cut a slow client within ${CUT_DEADLINE_MS} ms (answer: ${answer.slice(0, 80)})`,
        ),
      );
    }, CUT_DEADLINE_MS);
    socket.on('data', (c) => {
      if (answerMs < 0) answerMs = Date.now() - started;
      answer += c;
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(timer);
      clearTimeout(giveUp);
      resolve({ answerMs, closeMs: Date.now() - started, status: answer.split('\r\n')[0] ?? '' });
    });
  });
}

describe('abuse limits on the server process', () => {
  let server: ServerProcess;
  let testDb: TestDatabase | undefined;
  let admin: string;
  let rssStart = 0;
  const figures: Record<string, string | number> = {};

  before(async () => {
    if (testEngine === 'postgres') testDb = await createTestDatabase({ poolSize: 2 });
    server = await startServer({
      databaseUrl: testDb?.url,
      dataDir: 'memory://',
      config: {
        staticUsers: [ROOT],
        rateLimit: LIMITS,
        http: { requestTimeoutMs: REQUEST_TIMEOUT_MS, connectionTimeoutMs: 5_000 },
      },
    });
    admin = await adminLogin(server.base, ROOT);
    for (let i = 0; i < 3; i++) {
      const res = await http(server.base, 'POST', '/rest/product/product', {
        token: admin,
        body: { name: `Abuse ${i}`, sku: `ABUSE-${i}`, price: 9.99, stockQty: 10 },
      });
      assert.equal(res.status, 201, res.text);
    }
    for (let i = 0; i < 50; i++) await http(server.base, 'GET', '/rest/product/product?limit=100');
    rssStart = server.rss();
  });
  after(async () => {
    await server?.stop();
    await testDb?.destroy();
  });

  test('when one address registers again and again, then 429 RATE_LIMITED with Retry-After after the limit', async () => {
    const statuses: number[] = [];
    let retryAfter = '';
    for (let i = 0; i < LIMITS.registerPerIp + 3; i++) {
      const res = await http(server.base, 'POST', '/rest/auth/customer/register', {
        body: { email: uniqueEmail('flood'), password: 'flood-password', firstName: 'F', lastName: 'L' },
      });
      statuses.push(res.status);
      if (res.status === 429) {
        retryAfter = res.headers.get('retry-after') ?? '';
        assert.equal((res.json as { error: { code: string } }).error.code, 'RATE_LIMITED');
      }
    }
    figures.registrations = statuses.join('/');
    assert.deepEqual(statuses.slice(0, LIMITS.registerPerIp), Array(LIMITS.registerPerIp).fill(201));
    assert.ok(
      statuses.slice(LIMITS.registerPerIp).every((s) => s === 429),
      statuses.join(','),
    );
    assert.ok(Number(retryAfter) > 0, 'Retry-After is set');
  });

  test('when wrong coupon codes are tried from one address, then 429 RATE_LIMITED after the limit', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < LIMITS.couponPerIp + 3; i++) {
      const res = await http(server.base, 'POST', '/rest/cart/coupon', { body: { code: `GUESS${i}XYZ` } });
      statuses.push(res.status);
    }
    figures.wrongCoupons = statuses.join('/');
    assert.ok(
      statuses.slice(0, LIMITS.couponPerIp).every((s) => s !== 429 && s < 500),
      statuses.join(','),
    );
    assert.ok(
      statuses.slice(LIMITS.couponPerIp).every((s) => s === 429),
      statuses.join(','),
    );
  });

  test('when a guest asks for a billion rows or more, then the ceiling is served silently', async () => {
    const answers: string[] = [];
    for (const limit of [5_000, 100_000, 1_000_000_000, 1_000_000_000_000]) {
      const res = await http(server.base, 'GET', `/rest/product/product?limit=${limit}`);
      assert.equal(res.status, 200, res.text);
      const body = res.json as { data: unknown[]; pagination: { per_page: number } };
      assert.equal(body.pagination.per_page, 1000, 'clamped silently to rest_max_page_size');
      assert.ok(body.data.length <= 1000);
      answers.push(`${limit}:${res.status}/per_page=${body.pagination.per_page}`);
    }
    const backend = await http(server.base, 'GET', '/rest/product/product?limit=100000', { token: admin });
    assert.equal(
      (backend.json as { pagination: { per_page: number } }).pagination.per_page,
      100_000,
      'no ceiling for the back office',
    );
    figures.hugeLimit = answers.join(',');
  });

  test('when a client sends its headers or its body byte by byte, then the server answers 408 at the request timeout and closes', async () => {
    const [headers, body] = await Promise.all([
      dripUntilCut(server.port, 'GET /health/live HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ', 'a', 100),
      dripUntilCut(
        server.port,
        'POST /rest/auth/customer/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"username":"',
        'a',
        100,
      ),
    ]);
    figures.slowHeaders = `${headers.status.replace('HTTP/1.1 ', '')}@${headers.answerMs}ms/closed@${headers.closeMs}ms`;
    figures.slowBody = `${body.status.replace('HTTP/1.1 ', '')}@${body.answerMs}ms/closed@${body.closeMs}ms`;
    for (const cut of [headers, body]) {
      assert.match(cut.status, /^HTTP\/1\.1 408 /);
      assert.ok(cut.answerMs >= REQUEST_TIMEOUT_MS - 100, `answered after ${cut.answerMs} ms`);
      assert.ok(cut.answerMs <= REQUEST_TIMEOUT_MS + 3_000, `answered after ${cut.answerMs} ms`);
      assert.ok(cut.closeMs - cut.answerMs < 1_000, 'the server closes the socket right after answering');
    }
    assert.equal((await http(server.base, 'GET', '/health/live')).status, 200, 'the server keeps serving');
  });

  test('when a body is nested 20,000 deep, then it is refused fast with a 4xx envelope and the server stays up', async () => {
    const deepArray = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    const deepObject = `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`;
    const cases: [string, string, string, string | undefined][] = [
      ['login, deep array', 'POST', '/rest/auth/customer/login', undefined],
      ['product, deep object', 'POST', '/rest/product/product', admin],
      ['setting, deep value', 'PUT', '/rest/system/setting/products_list_max', admin],
      ['totals, deep object', 'POST', '/rest/v1/checkout/totals', undefined],
    ];
    const answers: string[] = [];
    for (const [name, method, path, token] of cases) {
      const payload = name.includes('array')
        ? deepArray
        : name.includes('value')
          ? `{"value":${deepObject}}`
          : deepObject;
      const started = Date.now();
      const res = await fetch(server.base + path, {
        method,
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: payload,
      });
      const ms = Date.now() - started;
      const json = (await res.json()) as { success: boolean; error?: { code: string } };
      answers.push(`${name}:${res.status}/${ms}ms`);
      assert.ok(res.status >= 400 && res.status < 500, `${name}: ${res.status}`);
      assert.equal(json.success, false);
      assert.ok(ms < 2_000, `${name} took ${ms} ms`);
    }
    const extra = await http(server.base, 'POST', '/rest/auth/customer/login', {
      body: { username: 'x@example.com', password: 'x', deep: 1 },
    });
    assert.ok(extra.status < 500);
    figures.deepJson = answers.join(',');
    assert.equal((await http(server.base, 'GET', '/health/ready')).status, 200);
  });

  test('when the abuse is over, then the server process has grown by less than 50 MB', async () => {
    await sleep(500);
    const rssEnd = server.rss();
    report('abuse', {
      engine: testEngine,
      ...figures,
      rssStartMb: rssStart,
      rssEndMb: rssEnd,
      rssDeltaMb: rssEnd - rssStart,
    });
    assert.ok(rssEnd - rssStart < 50, `RSS ${rssStart} → ${rssEnd} MB`);
  });
});
