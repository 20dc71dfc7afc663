// Delivered webhooks per second: N committed events, one webhook subscribed to them, a local
// receiver answering 204; the clock runs from the first commit to the last delivery received.
// Usage: node --import tsx bench/webhooks.ts [--events 2000] [--engine pglite|postgres]
//        (PostgreSQL: BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres;
//        a throw-away database is created and dropped)
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import { parseConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import { outbox } from '../src/modules/outbox/outbox.tables.ts';

const args = process.argv.slice(2);
const EVENTS = Number(args.includes('--events') ? args[args.indexOf('--events') + 1] : 2000);
const engine = args.includes('--engine') ? args[args.indexOf('--engine') + 1] : 'postgres';
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

let received = 0;
let done: () => void = () => {};
const allReceived = new Promise<void>((resolve) => {
  done = resolve;
});
const receiver = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(204).end();
    received += 1;
    if (received === EVENTS) done();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

const name = `shop_bench_webhooks_${randomBytes(4).toString('hex')}`;
let databaseUrl: string | undefined;
if (engine === 'postgres') {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  databaseUrl = u.toString();
}
const database = await openDatabase({ databaseUrl, dataDir: 'memory://' });
await database.migrate();
const config = parseConfig({
  logLevel: 'silent',
  seedDemo: false,
  auth: { secret: randomBytes(32).toString('base64url') },
  staticUsers: [{ username: 'bench@example.com', password: 'bench-password', roles: [1] }],
  jobs: { relayIntervalMs: 100 },
});
const app = await buildApp({ config, database, logger: false });
await app.ready();
const token = (await app.sessions.open({ sub: 'static:bench@example.com', ctx: 'admin', roles: [1] }))
  .access_token;
const created = await app.inject({
  method: 'POST',
  url: '/rest/system/webhook',
  headers: { authorization: `Bearer ${token}` },
  payload: { url, events: ['*'] },
});
if (created.statusCode !== 201) throw new Error(created.body);

const started = performance.now();
for (let i = 0; i < EVENTS; i += 100) {
  const size = Math.min(100, EVENTS - i);
  await database.db
    .insert(outbox)
    .values(
      Array.from({ length: size }, (_, k) => ({ type: 'order.placed', payload: { orderId: i + k + 1 } })),
    );
}
await allReceived;
const seconds = (performance.now() - started) / 1000;
console.log(
  `webhooks (${engine}): ${EVENTS} delivered in ${seconds.toFixed(2)} s = ${Math.round(EVENTS / seconds)}/s`,
);
await app.close();
await database.close();
receiver.close();
if (engine === 'postgres') {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
}
