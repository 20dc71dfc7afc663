// Compiles the server into one ES module, dist/server.mjs (esbuild; well under a second), for
// `npm start`: running TypeScript through a loader would keep a loader thread and the transformed
// sources in the serving process, some 80 MB of memory under load. Packages stay external.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

export async function buildServer() {
  await build({
    entryPoints: ['src/server.ts'],
    outfile: 'dist/server.mjs',
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
    // The getting-started page of /docs, carried in the bundle (src/http/getting-started.ts).
    define: {
      __GETTING_STARTED__: JSON.stringify(
        readFileSync(new URL('../docs/getting-started.md', import.meta.url), 'utf8'),
      ),
    },
  });
  return 'dist/server.mjs';
}

/**
 * The Node flags `npm start` runs the server with (package.json's start script), so that the
 * benchmark and the process test run the service exactly as it is shipped.
 */
export function serviceNodeFlags() {
  const { scripts } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  return scripts.start.split(/\s+/).filter((word) => word.startsWith('--'));
}

/**
 * The environment the start script sets before `node` (its leading `NAME=value` words): glibc's
 * malloc limited to two arenas, so memory freed by image decoding on the thread pool is reused
 * instead of kept by an arena per thread (docs/media.md).
 */
export function serviceEnv() {
  const { scripts } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  const words = scripts.start.split(/\s+/);
  const leading = words.slice(0, words.indexOf('node'));
  return Object.fromEntries(leading.map((word) => word.split('=')));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await buildServer();
