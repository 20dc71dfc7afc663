// How long a webhook delivery held by a killed instance waits before another instance sends it,
// on PostgreSQL with the shipped job settings. Instance A takes the delivery (the receiver holds
// the request open) and is killed with SIGKILL; instance B, started then, must take the expired
// job. The clock runs from A's request reaching the receiver to B's.
// Usage: node --import tsx bench/dead-worker.ts [--rounds 3]
//        (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres; a throw-away
//        database is created and dropped)
import { randomBytes } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { scratchDatabase } from './scratch-database.ts';
import { ROOT } from '../test/helpers/hardening/fixtures.ts';
import { adminLogin, http, type ServerProcess, startServer } from '../test/helpers/hardening/server.ts';

const args = process.argv.slice(2);
const ROUNDS = Number(args.includes('--rounds') ? args[args.indexOf('--rounds') + 1] : 3);
async function round(): Promise<number> {
  const name = randomBytes(4).toString('hex');
  const database = await scratchDatabase('shop_bench_dead_worker');
  const held: ServerResponse[] = [];
  let first = 0;
  let onFirst: () => void = () => {};
  let onSecond: (ms: number) => void = () => {};
  const firstArrived = new Promise<void>((resolve) => {
    onFirst = resolve;
  });
  const secondArrived = new Promise<number>((resolve) => {
    onSecond = resolve;
  });
  const receiver = createServer((request, response) => {
    request.resume();
    if (first === 0) {
      first = performance.now();
      held.push(response);
      onFirst();
      return;
    }
    response.writeHead(204).end();
    onSecond(performance.now() - first);
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const target = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const options = { databaseUrl: database.url, config: { staticUsers: [ROOT] } };
  let a: ServerProcess | undefined;
  let b: ServerProcess | undefined;
  try {
    a = await startServer(options);
    const token = await adminLogin(a.base, ROOT);
    await http(a.base, 'POST', '/rest/system/webhook', {
      token,
      body: { url: target, events: ['customer.registered'] },
    });
    await http(a.base, 'POST', '/rest/auth/customer/register', {
      body: { email: `dw-${name}@example.com`, password: 'dead-worker-bench', firstName: 'D', lastName: 'W' },
    });
    await firstArrived;
    a.child.kill('SIGKILL');
    await a.exited;
    b = await startServer(options);
    return await secondArrived;
  } finally {
    for (const response of held) response.destroy();
    await a?.stop(1_000);
    await b?.stop(5_000);
    receiver.close();
    await database.drop();
  }
}

for (let i = 0; i < ROUNDS; i++) {
  const ms = await round();
  console.log(
    `round ${i + 1}: the killed instance's delivery reached the receiver again after ${(ms / 1000).toFixed(1)} s`,
  );
}
