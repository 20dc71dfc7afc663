// The layering of docs/architecture.md, checked on the source: the generic layers import no feature
// module, and feature modules depend on each other in one direction only (no cycle).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, test } from 'node:test';

const SRC = resolve(import.meta.dirname, '../../src');
const GENERIC = ['resources', 'http', 'db', 'lib'];
/** The one generic file that gathers the modules' tables, for drizzle (docs/architecture.md). */
const TABLE_GATHERER = 'db/schema.ts';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** Relative imports of a file (static and dynamic), as paths under src/. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [
    ...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^;'"]*?['"](\.[^'"]+)['"]/g),
    ...text.matchAll(/import\(\s*'(\.[^']+)'\s*\)/g),
  ].map((m) => m[1]);
  return specifiers.map((s) => relative(SRC, resolve(dirname(file), s)));
}

const files = sourceFiles(SRC).map((file) => ({ path: relative(SRC, file), imports: importsOf(file) }));
const moduleOf = (path: string) => /^modules\/([^/]+)\//.exec(path)?.[1];

describe('layers of src/', () => {
  test('the generic layers (resources, http, db, lib) import no feature module', () => {
    const offending = files
      .filter((f) => GENERIC.includes(f.path.split('/')[0]) && f.path !== TABLE_GATHERER)
      .flatMap((f) => f.imports.filter((i) => moduleOf(i)).map((i) => `${f.path} → ${i}`));
    assert.deepEqual(offending, []);
  });

  test('feature modules depend on each other in one direction only', () => {
    const edges = new Map<string, Set<string>>();
    for (const f of files) {
      const from = moduleOf(f.path);
      if (!from) continue;
      for (const i of f.imports) {
        const to = moduleOf(i);
        if (to && to !== from) edges.set(from, (edges.get(from) ?? new Set()).add(to));
      }
    }
    // Depth-first search for a path back to where it started.
    const cycles: string[] = [];
    const visit = (node: string, path: string[]) => {
      for (const next of edges.get(node) ?? []) {
        if (next === path[0]) cycles.push([...path, next].join(' → '));
        else if (!path.includes(next) && next > path[0]) visit(next, [...path, next]);
      }
    };
    for (const start of edges.keys()) visit(start, [start]);
    assert.deepEqual(cycles, []);
  });
});
