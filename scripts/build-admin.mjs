// Builds the back office (admin/, Vite) into admin/dist, with .gz and .br copies that the service
// serves to browsers that accept them (src/modules/admin-ui). Runs after `npm install` / `npm ci`
// (package.json postinstall) and as `npm run build:admin` (which always rebuilds).
//
// A failed or impossible build never fails the installation: the API does not need the back
// office, and /admin then answers 503 with a page that says how to build it. The reason is printed.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const ROOT = new URL('..', import.meta.url).pathname;
const ADMIN = join(ROOT, 'admin');
const DIST = join(ADMIN, 'dist');
const SOURCES = [
  join(ADMIN, 'src'),
  join(ADMIN, 'index.html'),
  join(ADMIN, 'vite.config.ts'),
  join(ROOT, 'packages/client/src'),
];
const COMPRESSIBLE = /\.(js|css|html|svg|json|txt)$/;

function warn(message) {
  console.warn(
    `\n[admin] ${message}\n[admin] The API works without it; /admin answers 503 until \`npm run build:admin\` succeeds.\n`,
  );
}

function filesUnder(path) {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path).flatMap((name) => filesUnder(join(path, name)));
}

function newestSource() {
  return Math.max(...SOURCES.flatMap(filesUnder).map((file) => statSync(file).mtimeMs));
}

function upToDate() {
  const page = join(DIST, 'index.html');
  return existsSync(page) && statSync(page).mtimeMs > newestSource();
}

/** Writes name.gz and name.br beside every text file of the build. */
function precompress() {
  for (const file of filesUnder(DIST)) {
    if (!COMPRESSIBLE.test(file)) continue;
    const content = readFileSync(file);
    writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
    writeFileSync(
      `${file}.br`,
      brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    );
  }
}

export function buildAdmin({ force = false } = {}) {
  if (process.env.SKIP_ADMIN_BUILD === '1') {
    console.log('[admin] SKIP_ADMIN_BUILD=1: the back office is not built');
    return false;
  }
  let viteBin;
  try {
    const manifest = createRequire(join(ADMIN, 'package.json')).resolve('vite/package.json');
    viteBin = join(dirname(manifest), JSON.parse(readFileSync(manifest, 'utf8')).bin.vite);
  } catch {
    warn(
      'Vite is not installed (were the workspace dependencies left out?), so the back office was not built.',
    );
    return false;
  }
  if (!force && upToDate()) {
    console.log('[admin] admin/dist is up to date');
    return true;
  }
  const started = Date.now();
  const result = spawnSync(process.execPath, [viteBin, 'build', '--logLevel', 'warn'], {
    cwd: ADMIN,
    stdio: 'inherit',
  });
  if (result.status !== 0) {
    warn(`The back office build failed (vite exited with ${result.status ?? result.signal}).`);
    return false;
  }
  precompress();
  console.log(`[admin] built admin/dist in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return true;
}

const force = process.argv.includes('--force');
const built = buildAdmin({ force });
// Only a build asked for by hand reports failure through the exit code; installation never fails.
process.exit(!built && process.argv.includes('--strict') ? 1 : 0);
