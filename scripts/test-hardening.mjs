// The long form of the hardening scenarios (test/hardening/, docs/hardening.md): fuzzing, access
// sweeps, abuse, crashes, database faults, load and soak, at full size, one file at a time (the
// timing-sensitive scenarios must not share the two cores), then a summary of every figure.
// Usage: npm run test:hardening [-- test/hardening/soak.test.ts …]
//        FC_SEED=<seed> replays the fuzzing; TEST_DATABASE_URL runs the in-process scenarios on
//        PostgreSQL; HARDENING_DATABASE_URL names the server the soak creates its database on.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const args = process.argv.slice(2);
const files = args.length
  ? args
  : readdirSync('test/hardening')
      .filter((f) => f.endsWith('.test.ts'))
      .sort()
      .map((f) => join('test/hardening', f));
const report = process.env.HARDENING_REPORT ?? join(tmpdir(), `shop-hardening-${process.pid}.jsonl`);
rmSync(report, { force: true });

const started = Date.now();
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=1', '--test-reporter=spec', ...files],
  { stdio: 'inherit', env: { ...process.env, HARDENING: 'long', HARDENING_REPORT: report } },
);
const minutes = ((Date.now() - started) / 60_000).toFixed(1);

console.log(`\n== hardening figures (long form, ${minutes} min)`);
if (existsSync(report)) {
  for (const line of readFileSync(report, 'utf8').split('\n').filter(Boolean)) {
    const { scenario, form: _form, at: _at, engine, ...figures } = JSON.parse(line);
    const text = Object.entries(figures)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ');
    console.log(`${scenario} [${engine}]: ${text}`);
  }
  if (!process.env.HARDENING_REPORT) rmSync(report, { force: true });
}
process.exit(result.status ?? 1);
