// How soon another instance sees a write (docs/performance.md, "The shared cache"): an instance
// keeps a product page in its answer cache; a price is committed on a connection of its own (as
// another instance would); the clock runs from that COMMIT's answer to the first answer of the
// instance that shows the new price. Repeated N times; p50, p99 and the worst are printed.
// Usage: node --import tsx bench/cache-visibility.ts [--writes 1000]
//        (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres; a throw-away
//        database is created and dropped)
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import { parseConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import { scratchDatabase } from './scratch-database.ts';

const args = process.argv.slice(2);
const WRITES = Number(args.includes('--writes') ? args[args.indexOf('--writes') + 1] : 1000);

const scratch = await scratchDatabase('shop_bench_visibility');
const database = await openDatabase({ databaseUrl: scratch.url, dataDir: '' });
const writer = new pg.Client({ connectionString: scratch.url });
try {
  await database.migrate();
  const config = parseConfig({ logLevel: 'silent', seedDemo: false, jobs: { enabled: false } });
  const app = await buildApp({ config, database, logger: false });
  await app.ready();
  await writer.connect();
  const { rows } = await writer.query<{ id: number }>(
    `insert into product (sku, slug, name, price) values ('VIS-1', 'vis-1', 'Visibility', 100) returning id`,
  );
  const page = `/rest/product/product/${rows[0]?.id}`;
  const priceShown = async () => (await app.inject({ method: 'GET', url: page })).json().data.price as number;
  const delays: number[] = [];
  for (let i = 1; i <= WRITES; i++) {
    await priceShown();
    await priceShown(); // kept: the next read would be a hit
    const cents = 100 + (i % 2);
    await writer.query('update product set price = $1 where id = $2', [cents, rows[0]?.id]);
    const committed = performance.now();
    while ((await priceShown()) !== cents / 100) await new Promise((resolve) => setImmediate(resolve));
    delays.push(performance.now() - committed);
  }
  await app.close();
  delays.sort((a, b) => a - b);
  const at = (q: number) =>
    (delays[Math.min(delays.length - 1, Math.floor(q * delays.length))] ?? 0).toFixed(2);
  console.log(
    `another instance's write seen after: p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, worst ${at(1)} ms (${WRITES} writes)`,
  );
} finally {
  await writer.end().catch(() => {});
  await database.close();
  await scratch.drop();
}
