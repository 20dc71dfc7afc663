// "Who writes a table" (docs/conventions.md), checked on the source: a table belongs to the module
// whose *.tables.ts defines it, and only that module's code writes it. Other modules call the
// owner's exported functions, or assemble SQL fragments the owner exports. Reads are free.
// Triggers and SQL functions are database objects (src/db/functions, src/db/triggers), not scanned.
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

/** The module a file of src/ belongs to: the feature under modules/, else the generic layer. */
const ownerOf = (path: string) => /^modules\/([^/]+)\//.exec(path)?.[1] ?? path.split('/')[0];

/** Comments removed, so a sentence about SQL is not read as SQL. */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
}

interface Table {
  variable: string;
  sqlName: string;
  owner: string;
  file: string;
}

/** Every pgTable of src/: its variable, its SQL name and the module whose *.tables.ts defines it. */
function tablesOf(files: string[]): Table[] {
  return files
    .filter((file) => file.endsWith('.tables.ts'))
    .flatMap((file) => {
      const path = relative(SRC, file);
      const text = readFileSync(file, 'utf8');
      return [...text.matchAll(/export const (\w+) = pgTable\(\s*'(\w+)'/g)].map((m) => ({
        variable: m[1],
        sqlName: m[2],
        owner: ownerOf(path),
        file: path,
      }));
    });
}

/** Local names of a file that stand for a table: imported from a *.tables.ts file (renamed or not). */
function tableNamesOf(text: string, tables: Table[]): Map<string, Table> {
  const byVariable = new Map(tables.map((t) => [t.variable, t]));
  const local = new Map<string, Table>();
  for (const m of text.matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*'[^']*\.tables\.ts'/g)) {
    for (const part of m[1].split(',')) {
      const [imported, alias] = part
        .replace(/\btype\b/, '')
        .trim()
        .split(/\s+as\s+/);
      const table = byVariable.get(imported);
      if (table) local.set(alias ?? imported, table);
    }
  }
  return local;
}

const DRIZZLE_WRITE = /\.(?:insert|update|delete)\(\s*(\w+)\s*\)/g;
const RESOURCE_TABLE = /\btable:\s*(\w+)\s*,/g;
// Raw SQL: the written table by name, or interpolated as a drizzle table (`${cartLines}`).
const RAW_WRITE =
  /\b(?:insert\s+into|update|delete\s+from|truncate(?:\s+table)?|merge\s+into)\s+(?:only\s+)?(?:\$\{\s*(\w+)\s*\}|(?:public\.)?"?(\w+)"?)(?=[\s(])/gi;

/** Every table a file writes, as `table (owner)`, when the owner is another module. */
function foreignWrites(file: string, tables: Table[]): string[] {
  const path = relative(SRC, file);
  const writer = ownerOf(path);
  const text = withoutComments(readFileSync(file, 'utf8'));
  const local = tableNamesOf(text, tables);
  const bySqlName = new Map(tables.map((t) => [t.sqlName, t]));
  const written: Table[] = [];
  for (const m of text.matchAll(DRIZZLE_WRITE))
    written.push(...[local.get(m[1])].filter((t) => t !== undefined));
  for (const m of text.matchAll(RESOURCE_TABLE))
    written.push(...[local.get(m[1])].filter((t) => t !== undefined));
  for (const m of text.matchAll(RAW_WRITE)) {
    const table = m[1] === undefined ? bySqlName.get(m[2].toLowerCase()) : local.get(m[1]);
    if (table) written.push(table);
  }
  return [
    ...new Set(
      written.filter((t) => t.owner !== writer).map((t) => `${path} writes ${t.sqlName} (${t.owner})`),
    ),
  ];
}

const files = sourceFiles(SRC);
const tables = tablesOf(files);

describe('who writes a table', () => {
  test('every table of src/db/schema.ts is found, with its owner', () => {
    const gathered = [
      ...readFileSync(join(SRC, 'db/schema.ts'), 'utf8').matchAll(/from '\.\.\/(.+\.tables\.ts)'/g),
    ];
    const defining = new Set(tables.map((t) => t.file));
    assert.deepEqual(
      gathered.map((m) => m[1]).filter((file) => !defining.has(file)),
      [],
      'a gathered *.tables.ts file defines no table this test can read',
    );
    assert.ok(tables.length >= 30, `only ${tables.length} tables found`);
  });

  test('a module writes only the tables it defines', () => {
    const offending = files
      .filter((file) => relative(SRC, file).startsWith('modules/'))
      .flatMap((file) => foreignWrites(file, tables));
    assert.deepEqual(offending, []);
  });

  test('the scan sees drizzle writes, raw SQL and interpolated tables', () => {
    const sample = [
      "import { carts as baskets } from '../cart/cart.tables.ts';",
      "import { outbox } from '../outbox/outbox.tables.ts';",
      'await db.update(baskets).set({});',
      'await queryRows(db, sql`delete from cart_line where cart_id = 1`);',
      `await queryRows(db, sql\`insert into \${outbox} (type) values (1)\`);`,
      '// update product set price = 0 (a comment, not SQL)',
    ].join('\n');
    const text = withoutComments(sample);
    const local = tableNamesOf(text, tables);
    const drizzle = [...text.matchAll(DRIZZLE_WRITE)].map((m) => local.get(m[1])?.sqlName);
    const raw = [...text.matchAll(RAW_WRITE)].map((m) => m[2] ?? local.get(m[1])?.sqlName);
    assert.deepEqual(drizzle, ['cart']);
    assert.deepEqual(raw, ['cart_line', 'outbox_event']);
  });
});
