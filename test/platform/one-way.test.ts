// The one way of each common concern (docs/conventions.md), checked on the source where no linter
// rule can say it: the configuration is read once, SQL runs through src/db, success bodies come
// from the envelope helpers and lists share one schema.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, test } from 'node:test';

const SRC = resolve(import.meta.dirname, '../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

const files = sourceFiles(SRC).map((file) => ({
  path: relative(SRC, file),
  // Comments may name what the code must not do.
  code: readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, ''),
}));

function filesMatching(pattern: RegExp, allowed: readonly string[] = []): string[] {
  return files.filter((f) => pattern.test(f.code) && !allowed.includes(f.path)).map((f) => f.path);
}

/**
 * Modules that still run raw SQL with the handle's execute() rather than queryRows(); to migrate.
 * The list may only shrink.
 */
const RAW_EXECUTE_NOT_YET_MIGRATED = [
  'modules/auth/sessions.repo.ts',
  'modules/cart/cart.repo.ts',
  'modules/outbox/queue.ts',
  'modules/outbox/vacuum.ts',
  'seed/demo.repo.ts',
];

describe('one way per concern in src/', () => {
  test('the environment is read by src/config.ts only, and what NODE_ENV decides is decided there', () => {
    assert.deepEqual(filesMatching(/process\.env/, ['config.ts']), []);
    assert.deepEqual(filesMatching(/\.nodeEnv\b/, ['config.ts']), []);
  });

  test('SQL runs through drizzle builders, queryRows or the prepared statements of src/db', () => {
    const raw = filesMatching(/\b(db|tx|client)\.execute\(/).filter((path) => !path.startsWith('db/'));
    assert.deepEqual(
      raw.filter((path) => !RAW_EXECUTE_NOT_YET_MIGRATED.includes(path)),
      [],
    );
  });

  test('success bodies are built by ok(), okList() or okOnly(), never as literals', () => {
    const literal = /success: true as const|\{\s*success: true,\s*data\b|return \{\s*success: true\s*\}/;
    assert.deepEqual(filesMatching(literal, ['http/envelope.ts']), []);
  });

  test('list answers have one schema, ListEnvelope', () => {
    assert.deepEqual(filesMatching(/pagination: Type\.Ref\(Pagination\)/, ['http/envelope.ts']), []);
  });

  test('the generic error layer holds no feature code', () => {
    const errors = files.find((f) => f.path === 'http/errors.ts');
    for (const code of ['OUT_OF_STOCK', 'COUPON_INVALID', 'ILLEGAL_TRANSITION', 'EMAIL_TAKEN']) {
      assert.doesNotMatch(errors?.code ?? '', new RegExp(`^\\s*${code}: \\{`, 'm'), code);
    }
  });
});
