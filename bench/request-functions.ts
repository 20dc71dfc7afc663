// The files and functions of src/ that one guest product list request runs, by V8 precise coverage
// with call counts (docs/resources.md, "The list path, file by file"). The request is the filtered
// search `?limit=15&categoryId=<c>&q=shirt`, measured twice: the first time this URL is asked (after
// warm-up requests of other URLs, so nothing of it is cached yet) and a later time (its total and
// its ranked page remembered). Both must run the same path: the same files and functions.
// Usage: node --import tsx bench/request-functions.ts
import { Session } from 'node:inspector/promises';
import { fileURLToPath } from 'node:url';
import { startTestApp } from '../test/helpers/app.ts';
import { createCategory, createProduct } from '../test/helpers/catalog-factories.ts';

const t = await startTestApp();
const shirts = await createCategory(t.app, { name: 'Shirts' });
const other = await createCategory(t.app, { name: 'Trousers' });
for (let i = 0; i < 12; i++) await createProduct(t.app, { name: `Linen shirt ${i}`, categoryId: shirts.id });
for (let i = 0; i < 8; i++) await createProduct(t.app, { name: `Trace ${i}`, categoryId: other.id });
const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
const list = `${address}/rest/product/product`;
const url = `${list}?limit=15&categoryId=${shirts.id}&q=shirt`;
// The same search in another category: the statement's text is the same (the category is a value,
// the words are in the text), so the first request of the measured URL finds it built.
const warmUp = [
  `${list}?limit=15&categoryId=${other.id}&q=shirt`,
  `${list}?limit=15`,
  `${list}?limit=15&categoryId=${other.id}`,
  `${list}?limit=15&q=trace`,
  `${list}?limit=15&categoryId=${other.id}&q=trace`,
  `${list}?limit=10&categoryId=${other.id}&q=linen`,
];

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
const root = new URL('..', import.meta.url).pathname;

/** src/ functions that ran during one request of `target`, by file. */
async function measure(
  target: string,
): Promise<{ files: Map<string, string[]>; status: number; bytes: number }> {
  await session.post('Profiler.takePreciseCoverage');
  const res = await fetch(target);
  const text = await res.text();
  const { result } = await session.post('Profiler.takePreciseCoverage');
  const files = new Map<string, string[]>();
  for (const script of result) {
    if (!script.url.startsWith('file://')) continue;
    const path = fileURLToPath(script.url);
    if (!path.startsWith(`${root}src/`)) continue;
    for (const fn of script.functions) {
      // The module's own top level ran when it was loaded, not for this request.
      if (fn.functionName === '' && fn.ranges[0].startOffset === 0) continue;
      if (fn.ranges[0].count > 0) {
        const names = files.get(path.slice(root.length)) ?? [];
        names.push(fn.functionName || '(anonymous)');
        files.set(path.slice(root.length), names);
      }
    }
  }
  return { files, status: res.status, bytes: text.length };
}

function report(label: string, run: Awaited<ReturnType<typeof measure>>): void {
  const n = [...run.files.values()].reduce((sum, fns) => sum + fns.length, 0);
  console.log(
    `\n${label}: status ${run.status}, ${run.bytes} bytes; ${run.files.size} files, ${n} functions`,
  );
  for (const [file, fns] of [...run.files].sort())
    console.log(`  ${file}: ${fns.length} ${fns.sort().join(', ')}`);
}

/** `file: function` of every function that ran, each once. */
function functionsOf(run: Awaited<ReturnType<typeof measure>>): Set<string> {
  return new Set([...run.files].flatMap(([file, fns]) => fns.map((fn) => `${file}: ${fn}`)));
}

for (const warm of warmUp) for (let i = 0; i < 3; i++) await (await fetch(warm)).text();
const first = await measure(url);
report(`first request of ${url.slice(address.length)}`, first);
// The session revocation poll (every 250 ms) may fire during a request: of three later requests the
// one that ran the fewest files is shown (the first request cannot be repeated).
let later = await measure(url);
for (let i = 0; i < 2; i++) {
  const again = await measure(url);
  if (again.files.size < later.files.size) later = again;
}
report('a later request of the same URL', later);
const [a, b] = [functionsOf(first), functionsOf(later)];
const sameFiles = [...first.files.keys()].sort().join() === [...later.files.keys()].sort().join();
console.log(`\nsame files first and later: ${sameFiles ? 'yes' : 'no'}`);
console.log(`only the first: ${[...a].filter((f) => !b.has(f)).join('; ') || 'none'}`);
console.log(`only the later: ${[...b].filter((f) => !a.has(f)).join('; ') || 'none'}`);
await t.close();
process.exit(0);
