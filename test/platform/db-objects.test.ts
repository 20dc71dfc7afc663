// "Database objects" (docs/conventions.md): the body that runs today of every SQL function and
// trigger is the file src/db/functions/<function>.sql or src/db/triggers/<table>.<trigger>.sql.
// The migrated database is compared with the files, whitespace aside, both ways.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/db/client.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';

const DB_DIR = resolve(import.meta.dirname, '../../src/db');

/** The definition as compared: whitespace runs made one space, the closing semicolon dropped. */
const normalised = (definition: string) => definition.replace(/\s+/g, ' ').trim().replace(/\s*;$/, '');

/** The files of a folder of src/db, by object name (the file name without `.sql`). */
function filesOf(folder: string): Map<string, string> {
  const dir = join(DB_DIR, folder);
  return new Map(
    readdirSync(dir)
      .filter((name) => name.endsWith('.sql'))
      .map((name) => [name.slice(0, -'.sql'.length), readFileSync(join(dir, name), 'utf8')]),
  );
}

/** Objects of the database with no file, files with no object, and objects whose body differs. */
function mismatches(objects: Map<string, string>, files: Map<string, string>): string[] {
  const found: string[] = [];
  for (const [name, definition] of objects) {
    const file = files.get(name);
    if (file === undefined) found.push(`${name}: in the database, no file`);
    else if (normalised(file) !== normalised(definition))
      found.push(`${name}: the file differs from the database, which has:\n${definition}`);
  }
  for (const name of files.keys()) if (!objects.has(name)) found.push(`${name}: a file, not in the database`);
  return found;
}

describe('database objects', () => {
  let t: TestDatabase;
  before(async () => {
    t = await createTestDatabase();
  });
  after(() => t.destroy());

  test('every SQL function of the migrated database is its file of src/db/functions', async () => {
    // Functions an extension brings (unaccent, pg_trgm) are the extension's, not ours.
    const rows = await queryRows<{ name: string; definition: string }>(
      t.database.db,
      sql`select p.proname as name, pg_get_functiondef(p.oid) as definition
          from pg_proc p join pg_namespace n on n.oid = p.pronamespace
          where n.nspname = 'public'
            and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')`,
    );
    assert.equal(
      new Set(rows.map((r) => r.name)).size,
      rows.length,
      'an overloaded function needs a file name rule',
    );
    assert.deepEqual(mismatches(new Map(rows.map((r) => [r.name, r.definition])), filesOf('functions')), []);
  });

  test('every trigger of the migrated database is its file of src/db/triggers', async () => {
    const rows = await queryRows<{ name: string; definition: string }>(
      t.database.db,
      sql`select c.relname || '.' || t.tgname as name, pg_get_triggerdef(t.oid, true) as definition
          from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = 'public' and not t.tgisinternal`,
    );
    assert.ok(rows.length > 0);
    assert.deepEqual(mismatches(new Map(rows.map((r) => [r.name, r.definition])), filesOf('triggers')), []);
  });
});
