// How long a logout on one instance takes to be refused on another: two apps, each with its own
// pool, over one throw-away PostgreSQL database (in one process, answering through inject). Each
// round registers a customer on A, reads /me with its token on B (so B has verified and cached
// it), logs out on A, then asks B every 5 ms until it answers 401.
// Usage: node --import tsx bench/revocation.ts [--rounds 40]
//        (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres; the database is dropped)
import { randomBytes } from 'node:crypto';
import { scratchDatabase } from './scratch-database.ts';
import { buildApp } from '../src/app.ts';
import { parseConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';

const args = process.argv.slice(2);
const ROUNDS = Number(args.includes('--rounds') ? args[args.indexOf('--rounds') + 1] : 40);
const scratch = await scratchDatabase('shop_bench_revocation');
const run = randomBytes(4).toString('hex');
const config = parseConfig({
  logLevel: 'silent',
  seedDemo: false,
  auth: { secret: randomBytes(32).toString('base64url') },
  rateLimit: { enabled: false },
  jobs: { enabled: false },
});
const open = () => openDatabase({ databaseUrl: scratch.url, dataDir: '' });
const dbA = await open();
await dbA.migrate();
const dbB = await open();
const a = await buildApp({ config, database: dbA, logger: false });
const b = await buildApp({ config, database: dbB, logger: false });
await Promise.all([a.ready(), b.ready()]);

const delays: number[] = [];
try {
  for (let round = 0; round < ROUNDS; round++) {
    const registered = await a.inject({
      method: 'POST',
      url: '/rest/auth/customer/register',
      payload: {
        email: `r${round}-${run}@example.com`,
        password: 'revocation-bench',
        firstName: 'R',
        lastName: 'B',
      },
    });
    const { access_token: token, refresh_token: refresh } = registered.json();
    const me = () =>
      b.inject({ url: '/rest/auth/customer/me', headers: { authorization: `Bearer ${token}` } });
    if ((await me()).statusCode !== 200) throw new Error('B did not accept the new token');
    await a.inject({
      method: 'POST',
      url: '/rest/auth/customer/logout',
      payload: { refresh_token: refresh },
    });
    const started = performance.now();
    while ((await me()).statusCode !== 401) await new Promise((resolve) => setTimeout(resolve, 5));
    delays.push(performance.now() - started);
    // Rounds out of step with the 250 ms poll, so the delays sample its whole period.
    await new Promise((resolve) => setTimeout(resolve, 37 + Math.random() * 200));
  }
} finally {
  await a.close();
  await b.close();
  await dbA.close();
  await dbB.close();
  await scratch.drop();
}
delays.sort((x, y) => x - y);
const at = (q: number) => delays[Math.min(delays.length - 1, Math.floor(q * delays.length))].toFixed(0);
console.log(
  `revocation reached the other instance after: min ${at(0)} ms, median ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${at(1)} ms (${delays.length} rounds)`,
);
