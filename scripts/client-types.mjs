// The client's types (packages/client/src/schema.ts) are generated from the OpenAPI document the
// app serves. `--write` regenerates them (npm run client:generate); without it the script checks
// that the committed file is what the current document generates, and fails when it is not.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

const DOCUMENT = 'build/openapi.json';
const TYPES = 'packages/client/src/schema.ts';

function run(args) {
  const result = spawnSync(args[0], args.slice(1), { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    process.stderr.write(result.stderr);
    process.exit(result.status ?? 1);
  }
  return result.stdout;
}

/** The types the current document generates. */
export function generatedTypes() {
  run([process.execPath, '--import', 'tsx', 'scripts/openapi.ts', DOCUMENT]);
  return run(['node_modules/.bin/openapi-typescript', DOCUMENT]);
}

const types = generatedTypes();
if (process.argv.includes('--write')) {
  writeFileSync(TYPES, types);
  console.log(`${TYPES} regenerated`);
} else if (readFileSync(TYPES, 'utf8') !== types) {
  console.error(`${TYPES} differs from the running document: run npm run client:generate and commit it`);
  process.exit(1);
} else {
  console.log(`${TYPES} matches the document`);
}
