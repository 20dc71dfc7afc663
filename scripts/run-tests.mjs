// Runs every test file under test/ (or the ones named) with Node's test runner and tsx.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';

function findTests(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return findTests(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

// `--smoke`: the folders and files whose code leans on what changes between Node versions (native
// addons, WebAssembly, crypto, fetch, streams, the process itself); CI runs them on the newer Node.
// Of auth and payments only the files that reach node:crypto and the Stripe client's HTTP: the rest
// of those folders is business rules that the Node 20 pass covers.
const SMOKE = [
  'unit',
  'platform',
  'media',
  'webhooks',
  'mail',
  'auth/login.test.ts',
  'auth/tokens.test.ts',
  'auth/device-tokens.test.ts',
  'payments/stripe-provider.test.ts',
];

const smoke = process.argv.includes('--smoke');
const args = process.argv.slice(2).filter((a) => a !== '--smoke');
const files = args.length
  ? args
  : smoke
    ? SMOKE.flatMap((entry) =>
        entry.endsWith('.ts') ? [join('test', entry)] : findTests(join('test', entry)),
      ).sort()
    : findTests('test').sort();
const concurrency = Number(process.env.TEST_CONCURRENCY) || Math.max(2, availableParallelism());
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...files],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);
