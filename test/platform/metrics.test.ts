import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { registerCustomer } from '../auth/auth-helpers.ts';
import { type TestApp, startTestApp } from '../helpers/app.ts';
import { testEngine } from '../helpers/database.ts';

const TOKEN = 'metrics-token-for-this-test-run-0123456789';

/** The value of one sample line (`name{labels} value`), or undefined when absent. */
function sample(text: string, name: string, labels: string): number | undefined {
  const line = text
    .split('\n')
    .find((l) => l.startsWith(`${name}{`) && labels.split(',').every((p) => l.includes(p)));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('metrics', () => {
  let t: TestApp;
  let portUrl: string;

  before(async () => {
    t = await startTestApp({
      config: {
        metrics: { token: TOKEN, port: 0 },
        jobs: { enabled: true, relayIntervalMs: 50, pollIntervalSeconds: 0.5 },
      },
    });
    const address = t.app.metricsServer?.address() as AddressInfo;
    portUrl = `http://127.0.0.1:${address.port}`;
  });
  after(async () => t.close());

  const scrape = () => t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });

  test('when GET /metrics comes without the metrics token or with another, then 401 and no metrics', async () => {
    for (const headers of [
      {},
      { authorization: 'Bearer wrong-token' },
      { authorization: `Bearer ${TOKEN}x` },
    ]) {
      const res = await t.app.inject({ url: '/metrics', headers });
      assert.equal(res.statusCode, 401);
      assert.equal(res.json().error.code, 'UNAUTHENTICATED');
      assert.doesNotMatch(res.body, /http_request_duration/);
    }
    const document = (await t.app.inject({ url: '/openapi.json' })).json();
    assert.equal(document.paths['/metrics'], undefined, 'not in the public API document');
  });

  test('when scraped with the token, then request durations are labelled by route template and status', async () => {
    await t.app.inject({ url: '/rest/product/product/123456' });
    await t.app.inject({ url: '/rest/product/product/654321' });
    await t.app.inject({ url: '/no/such/path/42' });
    const res = await scrape();
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/plain; version=0\.0\.4/);
    const text = res.body;
    const count = 'http_request_duration_seconds_count';
    assert.equal(sample(text, count, 'route="/rest/product/product/:id",status="404",method="GET"'), 2);
    assert.equal(sample(text, count, 'route="unmatched",status="404"'), 1);
    assert.doesNotMatch(text, /123456|654321|no\/such/, 'no raw URL in any label');
  });

  test('when scraped, then pool, queue depth, deliveries, rate-limit store and event-loop lag are there', async () => {
    await registerCustomer(t.app);
    // The welcome e-mail goes through the queue (no SMTP: kept in the outbox as logged).
    let text = '';
    for (let i = 0; i < 100; i++) {
      text = (await scrape()).body;
      if ((sample(text, 'shop_deliveries', 'kind="mail",outcome="delivered"') ?? 0) >= 1) break;
      await sleep(50);
    }
    assert.ok((sample(text, 'shop_deliveries', 'kind="mail",outcome="delivered"') ?? 0) >= 1, text);
    assert.match(text, /^# TYPE shop_job_queue_jobs gauge$/m);
    assert.equal(text.match(/^shop_rate_limit_store_reachable (\d)$/m)?.[1], '1');
    assert.match(text, /^nodejs_eventloop_lag_seconds \d/m);
    if (testEngine === 'postgres') {
      assert.match(text, /^shop_db_pool_connections \d+$/m);
      assert.match(text, /^shop_db_pool_waiting \d+$/m);
    } else assert.doesNotMatch(text, /shop_db_pool/, 'PGlite has no pool');
  });

  test('when metrics.port is set, then that listener answers /metrics without a token and nothing else', async () => {
    const res = await fetch(`${portUrl}/metrics`);
    assert.equal(res.status, 200);
    assert.match(await res.text(), /^# HELP http_request_duration_seconds /m);
    assert.equal((await fetch(`${portUrl}/rest/product/product`)).status, 404);
    assert.equal((await fetch(`${portUrl}/health/live`)).status, 404);
  });
});
