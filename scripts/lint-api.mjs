// npm run lint:api: writes the OpenAPI document the app generates (build/openapi.json) and lints
// it with Redocly's recommended rules (redocly.yaml) and Spectral's spectral:oas (.spectral.yaml).
// Any error or warning of either fails; both print their problems.
import { spawnSync } from 'node:child_process';

const DOCUMENT = 'build/openapi.json';

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', ...options });
  if (result.error) throw result.error;
  return result;
}

const written = run(process.execPath, ['--import', 'tsx', 'scripts/openapi.ts', DOCUMENT], {
  stdio: 'inherit',
});
if (written.status !== 0) process.exit(written.status ?? 1);

// Redocly fails only on errors, so its JSON totals decide; the human-readable list is printed
// when something is found. (It also prints a Node 20 end-of-life notice on stderr.)
const redoclyBin = 'node_modules/.bin/redocly';
const redocly = run(redoclyBin, ['lint', DOCUMENT, '--config', 'redocly.yaml', '--format', 'json']);
const { totals } = JSON.parse(redocly.stdout);
console.log(`redocly (recommended): ${totals.errors} errors, ${totals.warnings} warnings`);
if (totals.errors + totals.warnings > 0) {
  run(redoclyBin, ['lint', DOCUMENT, '--config', 'redocly.yaml', '--max-problems', '1000'], {
    stdio: 'inherit',
  });
}

const spectral = run(
  'node_modules/.bin/spectral',
  ['lint', DOCUMENT, '--ruleset', '.spectral.yaml', '--fail-severity', 'warn'],
  { stdio: 'inherit' },
);
console.log(`spectral (spectral:oas): ${spectral.status === 0 ? 'no problems' : 'problems above'}`);

process.exit(totals.errors + totals.warnings > 0 || spectral.status !== 0 ? 1 : 0);
