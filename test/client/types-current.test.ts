import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';

// The client's committed types must be what the running document generates: a route or schema
// changed without `npm run client:generate` fails here (and so in CI).
test('when the document is generated, then the committed client types match it', () => {
  const check = spawnSync(process.execPath, ['scripts/client-types.mjs'], { encoding: 'utf8' });
  assert.equal(check.status, 0, `${check.stdout}${check.stderr}`);
});
