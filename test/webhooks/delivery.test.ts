import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { body, type TestApp, startTestApp } from '../helpers/app.ts';
import { adminHeaders } from '../helpers/catalog-factories.ts';
import { startWebhookReceiver } from '../helpers/webhook-receiver.ts';
import { registerCustomer } from '../auth/auth-helpers.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/db/client.ts';
import { webhook } from '../../src/modules/webhooks/webhooks.tables.ts';

/** Short, so that a target that never answers fails within the test. */
const WEBHOOK_TIMEOUT_MS = 1500;

type Json = Record<string, unknown>;
interface Hook {
  id: number;
  secret: string;
}
interface Delivery {
  id: number;
  status: string;
  attempts: number;
  responseCode: number | null;
  nextAttemptAt: string | null;
  error: string | null;
  history: {
    attempt: number;
    succeeded: boolean;
    responseCode: number | null;
    durationMs: number;
    endedAt: string;
  }[];
}
interface Event {
  type: string;
  timestamp: string;
  data: { customerId?: number };
}

describe('webhooks: signed deliveries through the job queue', () => {
  let t: TestApp;
  let developer: Record<string, string>;

  before(async () => {
    t = await startTestApp({
      config: {
        // Milliseconds instead of 30 s … 12 h, so retries happen within the test.
        jobs: {
          enabled: true,
          retryBaseMs: 50,
          retryMaxMs: 400,
          maxAttempts: 4,
          relayIntervalMs: 50,
          pollIntervalSeconds: 0.5,
        },
        // A target that never answers fails within the test.
        webhooks: { timeoutMs: WEBHOOK_TIMEOUT_MS },
      },
    });
    developer = await adminHeaders(t.app, [2]);
  });
  after(async () => t.close());

  async function subscribe(url: string, events: string[]): Promise<Hook> {
    const res = await t.app.inject({
      method: 'POST',
      url: '/rest/system/webhook',
      headers: developer,
      payload: { url, events },
    });
    assert.equal(res.statusCode, 201, res.body);
    return body<{ data: Hook }>(res).data;
  }

  async function deliveriesOf(id: number): Promise<Delivery[]> {
    const res = await t.app.inject({
      method: 'GET',
      url: `/rest/system/webhook/${id}/deliveries`,
      headers: developer,
    });
    assert.equal(res.statusCode, 200, res.body);
    return body<{ data: Delivery[] }>(res).data;
  }

  test('when a customer registers, then the subscribed URL receives a signed {type, timestamp, data}', async () => {
    const receiver = await startWebhookReceiver();
    try {
      const hook = await subscribe(receiver.url, ['customer.registered']);
      assert.match(hook.secret, /^whsec_[A-Za-z0-9+/=]{40,}$/);
      await registerCustomer(t.app);
      await receiver.until((all) => all.length >= 1);
      const [delivery] = receiver.received;
      const verified = new Webhook(hook.secret).verify(
        delivery.body,
        delivery.headers as Record<string, string>,
      ) as Event;
      assert.equal(verified.type, 'customer.registered');
      assert.equal(typeof verified.data.customerId, 'number');
      assert.ok(!Number.isNaN(Date.parse(verified.timestamp)));
      assert.match(String(delivery.headers['webhook-id']), /^evt_\d+$/);
      assert.match(String(delivery.headers['webhook-signature']), /^v1,/);
    } finally {
      await receiver.close();
    }
  });

  test('when deliveries are queued, then a job held by a dead worker expires 5 s after its bound (the e-mail: 10 s; the webhook: its timeout)', async () => {
    // This file's webhooks time out at 1.5 s, so their jobs expire at 2 + 5 s; an e-mail at 10 + 5 s.
    const expected: Record<string, number> = {
      'webhook-deliver': Math.ceil(WEBHOOK_TIMEOUT_MS / 1000) + 5,
      'mail-send': 15,
    };
    const receiver = await startWebhookReceiver();
    try {
      await subscribe(receiver.url, ['customer.registered']);
      await registerCustomer(t.app);
      await receiver.until((all) => all.length >= 1);
      // The jobs of both deliveries (the webhook, the welcome e-mail) as pg-boss stored them.
      let rows: { name: string; seconds: number }[] = [];
      for (let i = 0; i < 100 && new Set(rows.map((r) => r.name)).size < 2; i++) {
        rows = await queryRows(
          t.database.db,
          sql`select name, extract(epoch from expire_in)::int as seconds from pgboss.job
              where name in ('webhook-deliver', 'mail-send')`,
        );
        await sleep(50);
      }
      assert.deepEqual(new Set(rows.map((r) => r.name)), new Set(['webhook-deliver', 'mail-send']));
      for (const row of rows)
        assert.equal(row.seconds, expected[row.name], `${row.name} expires after ${row.seconds} s`);
      const policies = await queryRows<{ name: string; expire_seconds: number }>(
        t.database.db,
        sql`select name, expire_seconds from pgboss.queue where name in ('webhook-deliver', 'mail-send')`,
      );
      for (const policy of policies) assert.equal(policy.expire_seconds, expected[policy.name], policy.name);
      assert.equal(policies.length, 2);
    } finally {
      await receiver.close();
    }
  });

  test('when the receiver fails twice, then the third attempt carries the same webhook-id and a valid signature', async () => {
    const receiver = await startWebhookReceiver((_r, index) => (index < 2 ? 500 : 200));
    try {
      const hook = await subscribe(receiver.url, ['*']);
      await registerCustomer(t.app);
      await receiver.until((all) => all.length >= 3);
      const ids = receiver.received.map((r) => r.headers['webhook-id']);
      assert.deepEqual(new Set(ids).size, 1, `one id on every attempt: ${ids.join(', ')}`);
      const third = receiver.received[2];
      new Webhook(hook.secret).verify(third.body, third.headers as Record<string, string>);
      let listed: Delivery[] = [];
      for (let i = 0; i < 50; i++) {
        listed = await deliveriesOf(hook.id);
        if (listed[0]?.status === 'succeeded') break;
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.equal(listed.length, 1);
      assert.equal(listed[0].status, 'succeeded');
      assert.equal(listed[0].attempts, 3);
      assert.equal(listed[0].responseCode, 200);
      assert.equal(listed[0].nextAttemptAt, null);
      // Every attempt is in the history, oldest first, with what the receiver answered.
      assert.deepEqual(
        listed[0].history.map((a) => [a.attempt, a.succeeded, a.responseCode]),
        [
          [1, false, 500],
          [2, false, 500],
          [3, true, 200],
        ],
      );
      assert.ok(listed[0].history.every((a) => a.durationMs >= 0 && !Number.isNaN(Date.parse(a.endedAt))));
    } finally {
      await receiver.close();
    }
  });

  test('when every attempt fails, then the delivery is dead after the last one and a manual retry sends it again', async () => {
    let accept = false;
    const receiver = await startWebhookReceiver(() => (accept ? 204 : 503));
    try {
      const hook = await subscribe(receiver.url, ['customer.registered']);
      await registerCustomer(t.app);
      await receiver.until((all) => all.length >= 4);
      let listed: Delivery[] = [];
      for (let i = 0; i < 50; i++) {
        listed = await deliveriesOf(hook.id);
        if (listed[0]?.status === 'dead') break;
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.equal(listed[0].status, 'dead');
      assert.equal(listed[0].attempts, 4);
      assert.equal(listed[0].responseCode, 503);
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(receiver.received.length, 4, 'no fifth attempt on its own');
      accept = true;
      const retried = await t.app.inject({
        method: 'POST',
        url: `/rest/system/webhook/${hook.id}/deliveries/${listed[0].id}/retry`,
        headers: developer,
      });
      assert.equal(retried.statusCode, 202, retried.body);
      await receiver.until((all) => all.length >= 5);
      assert.equal(receiver.received[4].headers['webhook-id'], receiver.received[0].headers['webhook-id']);
      for (let i = 0; i < 50; i++) {
        listed = await deliveriesOf(hook.id);
        if (listed[0]?.status === 'succeeded') break;
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.deepEqual(
        listed[0].history.map((a) => [a.attempt, a.succeeded, a.responseCode]),
        [
          [1, false, 503],
          [2, false, 503],
          [3, false, 503],
          [4, false, 503],
          [5, true, 204],
        ],
      );
    } finally {
      await receiver.close();
    }
  });

  test('when a target refuses the connection or never answers, then its deliveries say so generically, never the network error', async () => {
    const closed = await startWebhookReceiver();
    const refusing = closed.url;
    await closed.close();
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/hook`;
    try {
      const cases = [
        [await subscribe(refusing, ['customer.registered']), 'connection failed'],
        [await subscribe(silentUrl, ['customer.registered']), 'timed out'],
      ] as const;
      await registerCustomer(t.app);
      for (const [hook, reason] of cases) {
        let listed: Delivery[] = [];
        for (let i = 0; i < 150 && !listed[0]?.history.length; i++) {
          await new Promise((r) => setTimeout(r, 100));
          listed = await deliveriesOf(hook.id);
        }
        assert.equal(listed[0]?.error, reason, JSON.stringify(listed[0]));
        const text = JSON.stringify(listed);
        for (const leak of ['ECONNREFUSED', '127.0.0.1', 'socket', 'connect ']) {
          assert.ok(!text.includes(leak), `${reason}: ${leak} in ${text}`);
        }
      }
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  test('when a webhook is read, then its secret is not answered; rotation answers a new one', async () => {
    const hook = await subscribe('https://example.com/hook', ['order.placed']);
    const read = await t.app.inject({
      method: 'GET',
      url: `/rest/system/webhook/${hook.id}`,
      headers: developer,
    });
    assert.equal(read.statusCode, 200);
    assert.equal(body<{ data: Json }>(read).data.secret, undefined);
    assert.equal(read.headers['cache-control'], 'private, no-store');
    const listed = await t.app.inject({ method: 'GET', url: '/rest/system/webhook', headers: developer });
    assert.ok(body<{ data: Json[] }>(listed).data.every((w) => w.secret === undefined));
    const rotated = await t.app.inject({
      method: 'POST',
      url: `/rest/system/webhook/${hook.id}/rotate-secret`,
      headers: developer,
    });
    assert.equal(rotated.statusCode, 200);
    const rotatedSecret = body<{ data: Hook }>(rotated).data.secret;
    assert.match(rotatedSecret, /^whsec_/);
    assert.notEqual(rotatedSecret, hook.secret);
  });

  test('when a role other than Developer or Admin asks, then 403', async () => {
    const orders = await adminHeaders(t.app, [6]);
    const res = await t.app.inject({ method: 'GET', url: '/rest/system/webhook', headers: orders });
    assert.equal(res.statusCode, 403);
    const admin = await adminHeaders(t.app, [3]);
    assert.equal(
      (await t.app.inject({ method: 'GET', url: '/rest/system/webhook', headers: admin })).statusCode,
      200,
    );
  });

  test('when an unknown event type is subscribed, then 400', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/rest/system/webhook',
      headers: developer,
      payload: { url: 'https://example.com/x', events: ['order.exploded'] },
    });
    assert.equal(res.statusCode, 400);
  });
});

describe('webhooks: targets on private addresses', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({
      config: {
        webhooks: { allowPrivateTargets: false },
        jobs: {
          enabled: true,
          retryBaseMs: 50,
          retryMaxMs: 100,
          maxAttempts: 2,
          relayIntervalMs: 50,
          pollIntervalSeconds: 0.5,
        },
      },
    });
  });
  after(async () => t.close());

  test('when a stored target points at a private address anyway, then no request leaves and the delivery dies', async () => {
    const receiver = await startWebhookReceiver();
    try {
      // As if the name had resolved elsewhere when the webhook was created.
      const [hook] = await t.app.db
        .insert(webhook)
        .values({
          url: receiver.url,
          events: ['*'],
          secret: `whsec_${Buffer.alloc(32, 7).toString('base64')}`,
        })
        .returning();
      await registerCustomer(t.app);
      const headers = await adminHeaders(t.app, [3]);
      let listed: Delivery[] = [];
      for (let i = 0; i < 100 && listed[0]?.status !== 'dead'; i++) {
        await new Promise((r) => setTimeout(r, 50));
        const res = await t.app.inject({
          method: 'GET',
          url: `/rest/system/webhook/${hook.id}/deliveries`,
          headers,
        });
        listed = body<{ data: Delivery[] }>(res).data;
      }
      assert.equal(listed[0]?.status, 'dead');
      assert.equal(listed[0].error, 'target refused: private address');
      assert.equal(receiver.received.length, 0);
    } finally {
      await receiver.close();
    }
  });

  test('when the target is in any special-purpose range, or an IPv6 address carrying a private IPv4, then 422', async () => {
    const headers = await adminHeaders(t.app, [3]);
    const refused = [
      ...['0.1.2.3', '100.64.0.1', '192.0.0.8', '192.0.2.10', '192.88.99.1', '198.18.0.1', '198.19.255.1'],
      ...['198.51.100.7', '203.0.113.9', '224.0.0.1', '239.255.255.250', '240.0.0.1', '255.255.255.255'],
      ...['172.31.255.255', '[::]', '[fd12::1]', '[fe80::1]', '[ff02::1]', '[100::1]', '[2001::1]'],
      ...['[2001:db8::1]', '[2001:1ff::1]', '[64:ff9b:1::1]', '[::127.0.0.1]', '[::ffff:7f00:1]'],
      ...['[::ffff:192.168.0.1]', '[64:ff9b::10.0.0.1]', '[64:ff9b::7f00:1]', '[2002:c0a8:101::1]'],
      ...['[2002:7f00:1::]', 'foo.localhost'],
    ];
    for (const host of refused) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/rest/system/webhook',
        headers,
        payload: { url: `http://${host}/hook`, events: ['*'] },
      });
      assert.equal(res.statusCode, 422, `${host}: ${res.body}`);
      assert.deepEqual(res.json().error.details, [{ field: 'url', message: 'private address' }]);
    }
    for (const host of [
      '93.184.216.34',
      '[64:ff9b::5db8:d822]',
      '[2002:5db8:d822::1]',
      '[2606:4700::1111]',
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/rest/system/webhook',
        headers,
        payload: { url: `http://${host}/hook`, events: ['*'], active: false },
      });
      assert.equal(res.statusCode, 201, `${host}: ${res.body}`);
    }
  });

  for (const url of [
    'http://127.0.0.1:8080/x',
    'http://localhost/x',
    'http://10.1.2.3/x',
    'http://[::1]/x',
    'http://169.254.169.254/latest',
    'http://192.168.1.1/',
    'http://[::ffff:127.0.0.1]/',
  ]) {
    test(`when the target is ${url} and private targets are not allowed, then 422`, async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/rest/system/webhook',
        headers: await adminHeaders(t.app, [3]),
        payload: { url, events: ['*'] },
      });
      assert.equal(res.statusCode, 422, res.body);
    });
  }
});
