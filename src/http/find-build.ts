import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `<folder>/dist` of this checkout when it holds `marker`, looked up from this file upwards (src/…
 * from the sources, dist/ when bundled): the back office's and the storefront's builds.
 */
export function findBuild(
  folder: string,
  marker: string,
  from = dirname(fileURLToPath(import.meta.url)),
): string | undefined {
  let dir = from;
  for (let level = 0; level < 6; level++) {
    const candidate = join(dir, folder, 'dist');
    if (existsSync(join(candidate, marker))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return undefined;
}
