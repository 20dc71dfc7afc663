// Benchmarks every scenario against R, a raw node:http server answering the same body,
// measured in the same round: this machine is shared and noisy, so only ratios are comparable.
// Usage: npm run bench [-- --only <group|name substring>] [--engines pglite,postgres]
//        BENCH_DURATION=10 BENCH_ROUNDS=3 BENCH_WARMUP=3 npm run bench
import { type ChildProcess, execFileSync, fork } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { alternatingCpu } from './alternating.ts';
import { type CpuTimes, cpuPer } from './cpu.ts';
import { scenarios } from './scenarios/index.ts';
import type { BenchContext, Engine, Scenario } from './scenarios/types.ts';

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const PG_ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const args = process.argv.slice(2);
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
const engineArg = args.includes('--engines') ? args[args.indexOf('--engines') + 1] : 'pglite,postgres';
const engines = engineArg.split(',') as Engine[];

const SERVER_CORE = '0';
const LOAD_CORE = '1';

function pin(pid: number, core: string): void {
  try {
    execFileSync('taskset', ['-cp', core, String(pid)], { stdio: 'ignore' });
  } catch {
    // No taskset, or one core only: run unpinned.
  }
}

async function start(
  script: string,
  env: Record<string, string>,
): Promise<{ child: ChildProcess; port: number }> {
  const child = fork(script, [], {
    // BENCH_NODE_ARGS reaches the service only, e.g. '--cpu-prof --cpu-prof-dir=/tmp/prof' to profile it.
    execArgv: script.endsWith('.ts')
      ? ['--import', 'tsx']
      : [...serviceFlags, ...(process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [])],
    env: { ...process.env, ...(script.endsWith('.ts') ? {} : serviceEnvironment), ...env },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  if (child.pid) pin(child.pid, SERVER_CORE);
  return { child, port };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

function rssMb(pid: number | undefined): number {
  if (!pid) return 0;
  const match = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Math.round(Number(match[1]) / 1024) : 0;
}

interface Measurement {
  rps: number;
  /** Requests answered in the measurement. */
  total: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

async function load(
  url: string,
  scenario: Scenario,
  request: ReturnType<Scenario['request']>,
  duration = DURATION,
  distinct = false,
): Promise<Measurement> {
  // A new Accept-Language each request (part of the answer cache's key, read by nothing else yet):
  // the service runs the whole read, as without the cache; an answer asked once is not kept.
  const distinctHeader = distinct ? { 'accept-language': 'x-[<id>]' } : {};
  const result = await autocannon({
    url: url + request.path,
    idReplacement: distinct,
    method: request.method ?? 'GET',
    headers: { 'content-type': 'application/json', ...request.headers, ...distinctHeader },
    body: request.body === undefined ? undefined : JSON.stringify(request.body),
    connections: scenario.connections ?? 50,
    duration,
  });
  return {
    rps: result.requests.average,
    total: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** CPU time (user + system) a process has used so far, in ms; 0 once it is gone. */
function cpuMsOf(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}
const CLOCK_TICKS = 100;

/** CPU time so far of the PostgreSQL backends connected to database `name` (a steady pool's). */
async function backendCpuMs(name: string): Promise<number> {
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ pid: number }>(
      'select pid from pg_stat_activity where datname = $1',
      [name],
    );
    return rows.reduce((sum, row) => sum + cpuMsOf(row.pid), 0);
  } finally {
    await admin.end();
  }
}

async function createPgDatabase(): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  const name = `shop_bench_${process.pid}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: async () => {
      // BENCH_KEEP_DATABASE=1 leaves it, to read its statements with EXPLAIN.
      if (process.env.BENCH_KEEP_DATABASE === '1') return console.error(`kept database ${name}`);
      const c = new pg.Client({ connectionString: PG_ADMIN_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

const METRICS_TOKEN = 'bench-metrics-token-0123456789abcdef';

/** The answer cache's hits and misses so far (GET /metrics); zeros when the service has no cache. */
async function cacheCounts(baseUrl: string): Promise<{ hits: number; misses: number }> {
  const res = await fetch(`${baseUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const text = res.ok ? await res.text() : '';
  const read = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? 0);
  return { hits: read('shop_cache_hits_total'), misses: read('shop_cache_misses_total') };
}

/** The share of cacheable reads answered from the cache between two counts, or '-' when none. */
function hitRatio(before: { hits: number; misses: number }, after: { hits: number; misses: number }): string {
  const hits = after.hits - before.hits;
  const reads = hits + after.misses - before.misses;
  return reads > 0 ? `${((100 * hits) / reads).toFixed(1)} %` : '-';
}

const BENCH_ADMIN = { username: 'bench@example.com', password: 'bench-admin-pw', name: 'Bench', roles: [1] };

/** An access token from a login or a registration of the running service. */
async function tokenFrom(baseUrl: string, path: string, body: Record<string, unknown>): Promise<string> {
  const res = await fetch(baseUrl + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`POST ${path} answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

async function runEngine(engine: Engine, selected: Scenario[], rows: string[][]): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'shop-bench-'));
  const pgDb = engine === 'postgres' ? await createPgDatabase() : undefined;
  // Tokens come from the service's own login and registration (they name a session it keeps);
  // they outlive a run, and the static bench admin needs no password hashing to be configured.
  const configPath = join(dataDir, 'shop.json');
  writeFileSync(
    configPath,
    JSON.stringify({
      auth: { accessTtlSeconds: 86_400 },
      staticUsers: [BENCH_ADMIN],
      // Read for the hit ratio of the answer cache.
      metrics: { token: METRICS_TOKEN },
    }),
  );
  const env: Record<string, string> = {
    SHOP_CONFIG: configPath,
    RATE_LIMIT_ENABLED: '0',
    LOG_LEVEL: 'info',
    HOST: '127.0.0.1',
    PORT: '0',
    SEED_DEMO: '0',
    ...(pgDb ? { DATABASE_URL: pgDb.url } : { DATA_DIR: join(dataDir, 'db') }),
    MEDIA_DIR: join(dataDir, 'media'),
  };
  let app = await start(server, env);
  try {
    const ctx: BenchContext = {
      engine,
      baseUrl: `http://127.0.0.1:${app.port}`,
      databaseUrl: pgDb?.url,
      dataDir: pgDb ? undefined : join(dataDir, 'db'),
      adminToken: () =>
        tokenFrom(ctx.baseUrl, '/rest/auth/admin/login', {
          username: BENCH_ADMIN.username,
          password: BENCH_ADMIN.password,
        }),
      customerToken: () =>
        tokenFrom(ctx.baseUrl, '/rest/auth/customer/register', {
          email: `bench-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}@example.com`,
          password: 'bench-password-1',
          firstName: 'Bench',
          lastName: 'Mark',
        }),
      state: {},
      serverRssMb: () => rssMb(app.child.pid),
      cpuMs: async () => ({
        server: cpuMsOf(app.child.pid),
        database: pgDb ? await backendCpuMs(pgDb.name) : undefined,
      }),
    };
    const seeds = new Set(selected.flatMap((s) => (s.seed ? [s.seed] : [])));
    if (seeds.size > 0) {
      // PGlite allows one process per data dir: seed with the server stopped, then restart it.
      await stop(app.child);
      for (const seed of seeds) await seed(ctx);
      app = await start(server, env);
      ctx.baseUrl = `http://127.0.0.1:${app.port}`;
    }
    for (const scenario of selected) await scenario.setup?.(ctx);
    for (const scenario of selected) {
      const request = scenario.request(ctx);
      const probe = await fetch(ctx.baseUrl + request.path, {
        method: request.method ?? 'GET',
        headers: { 'content-type': 'application/json', ...request.headers },
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
      });
      const body = Buffer.from(await probe.arrayBuffer());
      const size = body.byteLength;
      // R answers these very bytes: a load generator reads an image's bytes far slower than JSON text.
      const rawBody = join(dataDir, 'raw-body');
      writeFileSync(rawBody, body);
      const rawType = probe.headers.get('content-type') ?? 'application/json; charset=utf-8';
      if (!probe.ok && !scenario.acceptStatus?.includes(probe.status)) {
        throw new Error(`${scenario.name}: probe answered ${probe.status}`);
      }
      // Untimed warm-up: the JIT (and PGlite's WebAssembly tier-up) settle before the rounds count.
      if (WARMUP > 0) await load(ctx.baseUrl, scenario, scenario.request(ctx), WARMUP, scenario.distinctUrls);
      const raw = await start('bench/raw-server.ts', { BENCH_BODY_FILE: rawBody, BENCH_BODY_TYPE: rawType });
      const rounds: {
        app: Measurement;
        raw: Measurement;
        rss: number;
        cpu: CpuTimes;
        hits: string;
      }[] = [];
      try {
        for (let round = 0; round < ROUNDS; round++) {
          const rawM = await load(`http://127.0.0.1:${raw.port}`, scenario, { ...request, path: '/' });
          const stopBackground = await scenario.background?.(ctx);
          const countsBefore = await cacheCounts(ctx.baseUrl);
          const cpuBefore = await ctx.cpuMs();
          const appM = await load(
            ctx.baseUrl,
            scenario,
            scenario.request(ctx),
            DURATION,
            scenario.distinctUrls,
          );
          const cpuAfter = await ctx.cpuMs();
          const countsAfter = await cacheCounts(ctx.baseUrl);
          await stopBackground?.();
          rounds.push({
            hits: hitRatio(countsBefore, countsAfter),
            raw: rawM,
            app: appM,
            rss: rssMb(app.child.pid),
            cpu: cpuPer(cpuBefore, cpuAfter, appM.total),
          });
        }
      } finally {
        await stop(raw.child);
      }
      const ratio = median(rounds.map((r) => r.app.rps / r.raw.rps));
      const { shown, pass } = verdict(scenario, engine, ratio, await withinCpu(ctx, scenario));
      rows.push([
        scenario.name,
        engine,
        String(scenario.connections ?? 50),
        String(Math.round(median(rounds.map((r) => r.app.rps)))),
        String(Math.round(median(rounds.map((r) => r.raw.rps)))),
        ratio.toFixed(3),
        shown,
        pass,
        `${median(rounds.map((r) => r.app.p50))}/${median(rounds.map((r) => r.app.p99))}`,
        String(Math.max(...rounds.map((r) => r.rss))),
        String(rounds.reduce((n, r) => n + r.app.errors + r.app.non2xx, 0)),
        String(size),
        String(median(rounds.map((r) => r.cpu.server))),
        engine === 'postgres' ? String(median(rounds.map((r) => r.cpu.database ?? 0))) : '-',
        rounds.map((r) => r.hits).join(', '),
      ]);
      console.log(rows[rows.length - 1].join('\t'));
    }
  } finally {
    await stop(app.child);
    await pgDb?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * A `within` scenario's CPU µs per request and its reference's, measured in alternating slices of
 * half a measurement each, and the median of the groups' ratios (bench/alternating.ts); undefined
 * for other scenarios. The reference must share the scenario's seed.
 */
async function withinCpu(ctx: BenchContext, scenario: Scenario) {
  const of = scenario.within && scenarios.find((s) => s.name === scenario.within?.of);
  if (!of) return undefined;
  await of.setup?.(ctx);
  const seconds = Math.max(2, Math.round(DURATION / 2));
  const { a, b, ratio, ratios } = await alternatingCpu(async (isOwn) => {
    const measured = isOwn ? scenario : of;
    const before = await ctx.cpuMs();
    const { total } = await load(
      ctx.baseUrl,
      measured,
      measured.request(ctx),
      seconds,
      measured.distinctUrls,
    );
    const after = await ctx.cpuMs();
    const ms = after.server - before.server + ((after.database ?? 0) - (before.database ?? 0));
    return { requests: total, cpuUs: ms * 1000 };
  });
  return { own: a, of: b, ratio, ratios };
}

/**
 * Whether a scenario meets its targets on an engine, and how the table shows them: its own ratio
 * to R, and (`within`) its CPU per request against another scenario's measured in the same
 * minutes, which R's swings on a shared machine do not move.
 */
function verdict(
  scenario: Scenario,
  engine: Engine,
  ratio: number,
  within?: { own: number; of: number; ratio: number; ratios: number[] },
) {
  const own = typeof scenario.target === 'number' ? scenario.target : scenario.target?.[engine];
  const shown: string[] = own === undefined ? [] : [`≥ ${own}`];
  const failed: boolean[] = own === undefined ? [] : [ratio < own];
  if (scenario.within && within) {
    const share = 1 + scenario.within.share;
    const groups = within.ratios.map((r) => r.toFixed(2)).join(', ');
    shown.push(
      `CPU/req ≤ ${share} × "${scenario.within.of}": ${within.ratio.toFixed(2)} × (median of ${groups}; ${within.own} against ${within.of} µs)`,
    );
    failed.push(within.ratio > share);
  }
  return {
    shown: shown.length ? shown.join('; ') : '-',
    pass: failed.length === 0 ? '' : failed.some(Boolean) ? 'BELOW' : 'ok',
  };
}

/** Delivered webhooks per second, the target on PostgreSQL. */
const WEBHOOKS_TARGET: Partial<Record<Engine, number>> = { postgres: 300 };

/**
 * Delivered webhooks per second to a local receiver (bench/webhooks.ts, in a process of its own):
 * a figure of deliveries, not of requests, so its row has no R.
 */
function webhookDeliveryRow(engine: Engine): string[] {
  const output = execFileSync(
    process.execPath,
    ['--import', 'tsx', 'bench/webhooks.ts', '--engine', engine],
    {
      encoding: 'utf8',
    },
  );
  const perSecond = Number(/= (\d+)\/s/.exec(output)?.[1] ?? 0);
  const target = WEBHOOKS_TARGET[engine];
  const pass = target === undefined ? '' : perSecond >= target ? 'ok' : 'BELOW';
  const row = [
    'webhooks delivered per second (2,000 events)',
    engine,
    '-',
    String(perSecond),
    '-',
    '-',
    target === undefined ? '-' : `≥ ${target}/s`,
    pass,
    '-',
    '-',
    '-',
    '-',
    '-',
    '-',
    '-',
  ];
  console.log(row.join('\t'));
  return row;
}

/**
 * How soon a second instance sees a write (bench/cache-visibility.ts: 1,000 price writes on a
 * connection of their own, each timed until the instance answers the new price): p99 ≤ 100 ms.
 */
function cacheVisibilityRow(): string[] {
  const output = execFileSync(process.execPath, ['--import', 'tsx', 'bench/cache-visibility.ts'], {
    encoding: 'utf8',
  });
  console.log(output.trim());
  const p99 = Number(/p99 ([\d.]+) ms/.exec(output)?.[1] ?? Number.NaN);
  const row = ['another instance sees a write, p99 ms (1,000 writes)', 'postgres', '-', String(p99)];
  row.push('-', '-', '≤ 100 ms', p99 <= 100 ? 'ok' : 'BELOW', '-', '-', '-', '-', '-', '-', '-');
  console.log(row.join('\t'));
  return row;
}

/** The service as `npm start` runs it: built by scripts/build.mjs, then plain Node with its flags. */
let server = 'dist/server.mjs';
let serviceFlags: string[] = [];
let serviceEnvironment: Record<string, string> = {};

async function main() {
  pin(process.pid, LOAD_CORE);
  // @ts-expect-error: a plain ES module without type declarations
  const build = await import('../scripts/build.mjs');
  server = await build.buildServer();
  serviceFlags = build.serviceNodeFlags();
  serviceEnvironment = build.serviceEnv();
  // `--only =NAME`: that scenario alone (a name can be part of others').
  const selected = scenarios.filter((s) =>
    !only ? true : only.startsWith('=') ? s.name === only.slice(1) : s.group === only || s.name.includes(only),
  );
  const header = [
    'scenario',
    'engine',
    'conn',
    'req/s',
    'R req/s',
    'ratio',
    'target',
    '',
    'p50/p99 ms',
    'RSS MB',
    'errors',
    'bytes',
    'service µs/req',
    'database µs/req',
    'cache hits',
  ];
  console.log(
    `${DURATION}s per measurement, median of ${ROUNDS} rounds, server on core ${SERVER_CORE}, load on core ${LOAD_CORE}`,
  );
  console.log(header.join('\t'));
  const rows: string[][] = [];
  for (const engine of engines) {
    const forEngine = selected.filter((s) => (s.engines ?? ['pglite', 'postgres']).includes(engine));
    if (forEngine.length) await runEngine(engine, forEngine, rows);
  }
  if (!only || only === 'webhooks') for (const engine of engines) rows.push(webhookDeliveryRow(engine));
  if ((!only || only === 'cache') && engines.includes('postgres')) rows.push(cacheVisibilityRow());
  mkdirSync('bench/results', { recursive: true });
  const table = [header, ...rows].map((r) => `| ${r.join(' | ')} |`).join('\n');
  writeFileSync('bench/results/latest.md', `${new Date().toISOString()}\n\n${table}\n`);
  console.log(`\n${table}\n\nwritten to bench/results/latest.md`);
  if (rows.some((r) => r[7] === 'BELOW')) process.exitCode = 1;
}

await main();
