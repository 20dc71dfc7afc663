import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openDatabase } from '../../src/db/client.ts';
import { outbox } from '../../src/modules/outbox/outbox.tables.ts';
import { type TestApp, startTestApp } from '../helpers/app.ts';
import { adminHeaders } from '../helpers/catalog-factories.ts';
import { createTestDatabase, type TestDatabase, testEngine } from '../helpers/database.ts';
import { startWebhookReceiver } from '../helpers/webhook-receiver.ts';

// Two instances of the app on one PostgreSQL database, both running the relay and the delivery
// workers: they share the queue, and no attempt is sent twice.

const EVENTS = 300;
const jobs = {
  enabled: true,
  retryBaseMs: 100,
  retryMaxMs: 1000,
  relayIntervalMs: 20,
  pollIntervalSeconds: 0.5,
};

describe('webhooks: two instances on one PostgreSQL', {
  skip: testEngine !== 'postgres' && 'PostgreSQL only',
}, () => {
  let shared: TestDatabase;
  let a: TestApp;
  let b: TestApp;

  before(async () => {
    shared = await createTestDatabase();
    const second = await openDatabase({ databaseUrl: shared.url, dataDir: '', poolSize: 10 });
    a = await startTestApp({ testDatabase: shared, config: { jobs } });
    b = await startTestApp({
      testDatabase: { database: second, url: shared.url, destroy: () => second.close() },
      config: { jobs },
    });
  });
  after(async () => {
    await b?.close();
    await a?.close();
    await b?.database.close();
    await shared?.destroy();
  });

  test(`when ${EVENTS} events are committed, then each is delivered once, by whichever instance took it`, async () => {
    const receiver = await startWebhookReceiver();
    try {
      const res = await a.app.inject({
        method: 'POST',
        url: '/rest/system/webhook',
        headers: await adminHeaders(a.app, [2]),
        payload: { url: receiver.url, events: ['*'] },
      });
      assert.equal(res.statusCode, 201, res.body);
      const started = Date.now();
      // Committed in small transactions from both sides, as requests on two instances would.
      for (let i = 0; i < EVENTS; i += 10) {
        const db = (i / 10) % 2 === 0 ? a.database.db : b.database.db;
        await db.insert(outbox).values(
          Array.from({ length: 10 }, (_, k) => ({
            type: 'customer.registered',
            payload: { customerId: i + k + 1 },
          })),
        );
      }
      await receiver.until((all) => new Set(all.map((r) => r.headers['webhook-id'])).size >= EVENTS, 60_000);
      const seconds = (Date.now() - started) / 1000;
      await new Promise((r) => setTimeout(r, 1_000));
      const counts = new Map<string, number>();
      for (const r of receiver.received) {
        const id = String(r.headers['webhook-id']);
        counts.set(id, (counts.get(id) ?? 0) + 1);
      }
      const twice = [...counts.entries()].filter(([, n]) => n > 1);
      console.log(
        `# two instances: ${EVENTS} deliveries in ${seconds.toFixed(2)} s (${Math.round(EVENTS / seconds)}/s)`,
      );
      assert.equal(counts.size, EVENTS);
      assert.deepEqual(twice, []);
    } finally {
      await receiver.close();
    }
  });
});
