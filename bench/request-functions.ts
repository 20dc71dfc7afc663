// The files and functions of src/ that one guest product list request runs, by V8 precise coverage
// with call counts: after five warm-up requests the counters are reset, one request is sent over
// HTTP, and every src/ function whose count moved is listed (docs/architecture.md).
// Usage: node --import tsx bench/request-functions.ts
import { Session } from 'node:inspector/promises';
import { fileURLToPath } from 'node:url';
import { startTestApp } from '../test/helpers/app.ts';
import { createProduct } from '../test/helpers/catalog-factories.ts';

const t = await startTestApp();
for (let i = 0; i < 20; i++) await createProduct(t.app, { name: `Trace ${i}` });
const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
const url = `${address}/rest/product/product?limit=15`;
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
for (let i = 0; i < 5; i++) await (await fetch(url)).text();
await session.post('Profiler.takePreciseCoverage');
const res = await fetch(url);
const text = await res.text();
const { result } = await session.post('Profiler.takePreciseCoverage');
const root = new URL('..', import.meta.url).pathname;
const files = new Map<string, string[]>();
for (const script of result) {
  if (!script.url.startsWith('file://')) continue;
  const path = fileURLToPath(script.url);
  if (!path.startsWith(`${root}src/`)) continue;
  for (const fn of script.functions) {
    // The module's own top level ran when it was loaded, not for this request.
    if (fn.functionName === '' && fn.ranges[0].startOffset === 0) continue;
    if (fn.ranges[0].count > 0) {
      const list = files.get(path.slice(root.length)) ?? [];
      list.push(fn.functionName || '(anonymous)');
      files.set(path.slice(root.length), list);
    }
  }
}
let n = 0;
for (const [file, fns] of [...files].sort()) {
  n += fns.length;
  console.log(`${file}: ${fns.length} ${fns.join(', ')}`);
}
console.log(`status ${res.status}, ${text.length} bytes; ${files.size} files, ${n} functions`);
await t.close();
process.exit(0);
