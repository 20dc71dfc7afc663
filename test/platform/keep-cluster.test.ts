import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openDatabase } from '../../src/db/client.ts';

// `npm install` runs scripts/keep-cluster.ts (package.json postinstall) so that the first start on a
// new data directory restores a fresh cluster instead of running initdb (docs/resources.md).

test('when the install step has run, then a fresh cluster is kept and a new data directory opens from it', async () => {
  const out = execFileSync(process.execPath, ['--import', 'tsx', 'scripts/keep-cluster.ts'], {
    encoding: 'utf8',
  });
  assert.match(out, /\[database\] fresh embedded cluster (kept|already kept) \(/);
  const cache = join('node_modules', '.cache', 'shop-api');
  assert.ok(
    readdirSync(cache).some((f) => /^pglite-.+-cluster\.tar$/.test(f)),
    'the copy is in node_modules/.cache/shop-api',
  );

  const dir = mkdtempSync(join(tmpdir(), 'shop-kept-'));
  const dataDir = join(dir, 'data');
  const stages: string[] = [];
  try {
    const database = await openDatabase({ dataDir, onStage: (s) => stages.push(s) });
    await database.migrate();
    await database.ping();
    await database.close();
    assert.ok(existsSync(join(dataDir, 'PG_VERSION')));
    assert.match(stages.join('\n'), /creating the database \(once\)/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
