// Catalog import and export: a WooCommerce-shaped CSV of N products (a fifth of them variable with
// three variations each) imported through POST /rest/product/import on the job queue of the
// service as `npm start` runs it (dist/server.mjs, its Node flags and environment), timed from the
// upload to the job's end with the service's peak RSS meanwhile; then the export of the whole
// catalog, and a second import of the same file (which changes nothing).
// Usage: node --import tsx bench/catalog-import.ts [--products 10000] [--engine pglite|postgres]
//        (PostgreSQL: BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres;
//        a throw-away database is created and dropped)
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scratchDatabase } from './scratch-database.ts';

const args = process.argv.slice(2);
const PRODUCTS = Number(args.includes('--products') ? args[args.indexOf('--products') + 1] : 10_000);
const engine = args.includes('--engine') ? args[args.indexOf('--engine') + 1] : 'postgres';

const HEADER = 'ID,Type,SKU,Name,Published,Description,Regular price,In stock?,Stock,Weight (kg),Categories,Images,Parent,Attribute 1 name,Attribute 1 value(s),Name:el';

/** The file: every fifth product variable (sizes S, M, L), the others simple. */
function catalogCsv(products: number): string {
  const lines = [HEADER];
  let id = 0;
  for (let i = 0; i < products; i++) {
    const category = `Department ${i % 10} > Shelf ${i % 7}`;
    const description = `"Product ${i}, a line of text
and a second line"`;
    if (i % 5 === 0) {
      const parent = ++id;
      lines.push(`${parent},variable,V-${i},Variable ${i},1,${description},,,,1.2,${category},,,Size,"S, M, L",Μεταβλητό ${i}`);
      for (const size of ['S', 'M', 'L']) {
        lines.push(`${++id},variation,V-${i}-${size},,1,,${(10 + (i % 50)).toFixed(2)},1,${i % 30},,,,id:${parent},Size,${size},`);
      }
    } else {
      lines.push(`${++id},simple,S-${i},Simple ${i},1,${description},${(5 + (i % 90)).toFixed(2)},1,${i % 40},0.5,${category},https://cdn.example.com/${i}.jpg,,,,Απλό ${i}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

const ADMIN = { username: 'bench@example.com', password: 'bench-admin-pw', name: 'Bench', roles: [1] };

/** The service as `npm start` runs it, on its own database; answers once it listens. */
async function startService(dataDir: string, databaseUrl: string | undefined): Promise<{ child: ChildProcess; url: string }> {
  // @ts-expect-error: a plain ES module without type declarations
  const build = await import('../scripts/build.mjs');
  const server: string = await build.buildServer();
  const configPath = join(dataDir, 'shop.json');
  writeFileSync(
    configPath,
    JSON.stringify({ auth: { accessTtlSeconds: 86_400 }, staticUsers: [ADMIN], jobs: { relayIntervalMs: 100, pollIntervalSeconds: 0.5 } }),
  );
  const child = fork(server, [], {
    execArgv: build.serviceNodeFlags(),
    env: {
      ...process.env,
      ...build.serviceEnv(),
      SHOP_CONFIG: configPath,
      RATE_LIMIT_ENABLED: '0',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: '0',
      SEED_DEMO: '0',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : { DATA_DIR: join(dataDir, 'db') }),
      MEDIA_DIR: join(dataDir, 'media'),
    },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`the service exited with ${code}`)));
  });
  return { child, url: `http://127.0.0.1:${port}` };
}

/** The service's resident memory now, from the kernel (MB). */
function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : 0;
}

const dataDir = mkdtempSync(join(tmpdir(), 'shop-bench-import-'));
const scratch = engine === 'postgres' ? await scratchDatabase('shop_bench_import') : undefined;
const service = await startService(dataDir, scratch?.url);
const login = await fetch(`${service.url}/rest/auth/admin/login`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ username: ADMIN.username, password: ADMIN.password }),
});
const { access_token: token } = (await login.json()) as { access_token: string };
const authorization = { authorization: `Bearer ${token}` };

const startRss = rssMb(Number(service.child.pid));
let peakRss = startRss;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, rssMb(Number(service.child.pid)));
}, 100);

async function importFile(file: string) {
  const form = new FormData();
  form.append('file', new Blob([file], { type: 'text/csv' }), 'products.csv');
  peakRss = rssMb(Number(service.child.pid));
  const started = performance.now();
  const res = await fetch(`${service.url}/rest/product/import`, { method: 'POST', headers: authorization, body: form });
  if (res.status !== 202) throw new Error(await res.text());
  const { jobId } = ((await res.json()) as { data: { jobId: number } }).data;
  for (;;) {
    const answer = await fetch(`${service.url}/rest/product/import/${jobId}`, { headers: authorization });
    if (answer.status !== 200) throw new Error(`import ${jobId}: ${answer.status} ${await answer.text()}`);
    const report = ((await answer.json()) as { data: { status: string; created: number; updated: number; unchanged: number; errors: unknown[] } }).data;
    if (report.status === 'done' || report.status === 'failed') {
      return { seconds: (performance.now() - started) / 1000, report, peakRss: Math.round(peakRss) };
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

try {
  const file = catalogCsv(PRODUCTS);
  const rows = PRODUCTS + (PRODUCTS / 5) * 3;
  const first = await importFile(file);
  console.log(
    `import (${engine}): ${PRODUCTS} products, ${rows} rows (${(file.length / 1e6).toFixed(1)} MB) in ${first.seconds.toFixed(1)} s; created ${first.report.created}, ${first.report.errors.length} errors; service peak RSS ${first.peakRss} MB (${Math.round(startRss)} MB once started)`,
  );

  const exportStarted = performance.now();
  const exported = await (await fetch(`${service.url}/rest/product/export`, { headers: authorization })).text();
  const exportSeconds = (performance.now() - exportStarted) / 1000;
  console.log(`export (${engine}): ${exported.split('\n').length - 2} lines, ${(exported.length / 1e6).toFixed(1)} MB in ${exportSeconds.toFixed(1)} s`);

  const again = await importFile(file);
  console.log(
    `re-import (${engine}): ${again.seconds.toFixed(1)} s; created ${again.report.created}, updated ${again.report.updated}, unchanged ${again.report.unchanged}; service peak RSS ${again.peakRss} MB`,
  );
  const hwm = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${service.child.pid}/status`, 'utf8'));
  console.log(`service RSS high-water mark over the whole run (kernel's VmHWM): ${Math.round(Number(hwm?.[1]) / 1024)} MB`);
} finally {
  clearInterval(sampler);
  await new Promise<void>((resolve) => {
    service.child.once('exit', () => resolve());
    service.child.kill('SIGTERM');
  });
  await scratch?.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
