// Builds the storefront (storefront/, Preact rendered on the server) into storefront/dist:
//   - server.mjs: the render bundle the service loads (src/http/storefront.ts), self-contained
//     (Preact, preact-render-to-string and the typed client are bundled in);
//   - assets/: the small browser scripts and the style sheet, content-hashed, with .gz and .br copies.
// Runs after `npm install` / `npm ci` (package.json postinstall, after the back office) and as
// `npm run build:storefront` (which always rebuilds).
//
// A failed build never fails the installation: the API does not need the storefront, and `/`
// then answers 503 with a page that says how to build it. The reason is printed.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const ROOT = new URL('..', import.meta.url).pathname;
const STOREFRONT = join(ROOT, 'storefront');
const DIST = join(STOREFRONT, 'dist');
const SOURCES = [
  join(STOREFRONT, 'src'),
  join(ROOT, 'packages/client/src'),
  new URL(import.meta.url).pathname,
];
const COMPRESSIBLE = /\.(js|css|svg|txt)$/;
/** The browser scripts, one per enhanced page part: storefront/src/client/<name>.ts. */
const CLIENT_DIR = join(STOREFRONT, 'src', 'client');

function warn(message) {
  console.warn(
    `\n[storefront] ${message}\n[storefront] The API works without it; / answers 503 until \`npm run build:storefront\` succeeds.\n`,
  );
}

function filesUnder(path) {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path).flatMap((name) => filesUnder(join(path, name)));
}

function upToDate() {
  const bundle = join(DIST, 'server.mjs');
  if (!existsSync(bundle)) return false;
  const newest = Math.max(...SOURCES.flatMap(filesUnder).map((file) => statSync(file).mtimeMs));
  return statSync(bundle).mtimeMs > newest;
}

/** Writes name.gz and name.br beside every text asset. */
function precompress(dir) {
  for (const file of filesUnder(dir)) {
    if (!COMPRESSIBLE.test(file)) continue;
    const content = readFileSync(file);
    writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
    writeFileSync(
      `${file}.br`,
      brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    );
  }
}

const shared = {
  bundle: true,
  logLevel: 'warning',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  // The worktree's own typed client, from source (node_modules may hold another checkout's build).
  alias: { '@shop/client': join(ROOT, 'packages/client/src/index.ts') },
  legalComments: 'none',
  absWorkingDir: ROOT,
};

/** The browser scripts and the style sheet, hashed; answers {logical name: public path}. */
async function buildAssets(esbuild) {
  const entryPoints = Object.fromEntries(
    readdirSync(CLIENT_DIR)
      .filter((name) => /\.tsx?$/.test(name))
      .map((name) => [name.replace(/\.tsx?$/, ''), join(CLIENT_DIR, name)]),
  );
  entryPoints.styles = join(STOREFRONT, 'src', 'styles.css');
  const result = await esbuild.build({
    ...shared,
    entryPoints,
    outdir: join(DIST, 'assets'),
    entryNames: '[name]-[hash]',
    format: 'esm',
    platform: 'browser',
    target: ['chrome110', 'firefox110', 'safari16'],
    minify: true,
    metafile: true,
  });
  const manifest = {};
  for (const [output, meta] of Object.entries(result.metafile.outputs)) {
    if (!meta.entryPoint) continue;
    const name = basename(output).replace(/-[A-Z0-9]+\.(js|css)$/i, '');
    manifest[name] = `/assets/${relative(join(DIST, 'assets'), join(ROOT, output))}`;
  }
  return manifest;
}

export async function buildStorefront({ force = false } = {}) {
  if (process.env.SKIP_STOREFRONT_BUILD === '1') {
    console.log('[storefront] SKIP_STOREFRONT_BUILD=1: the storefront is not built');
    return false;
  }
  if (!force && upToDate()) return true;
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch {
    warn('esbuild is not installed, so the storefront was not built.');
    return false;
  }
  const started = Date.now();
  try {
    rmSync(DIST, { recursive: true, force: true });
    mkdirSync(DIST, { recursive: true });
    const assets = await buildAssets(esbuild);
    // The style sheet also goes inline into every page (no request before the first paint), allowed
    // by the hash of its exact text in the page's CSP (src/http/storefront.ts), never 'unsafe-inline'.
    const styles = readFileSync(join(DIST, assets.styles.replace(/^\//, ''))).toString('utf8');
    const styleHash = `sha256-${createHash('sha256').update(styles).digest('base64')}`;
    await esbuild.build({
      ...shared,
      entryPoints: [join(STOREFRONT, 'src', 'server.tsx')],
      outfile: join(DIST, 'server.mjs'),
      format: 'esm',
      platform: 'node',
      target: 'node20',
      // The hashed names the pages link to, fixed at build time.
      define: {
        __STOREFRONT_ASSETS__: JSON.stringify(assets),
        __STOREFRONT_STYLES__: JSON.stringify({ text: styles, hash: styleHash }),
      },
    });
    precompress(join(DIST, 'assets'));
  } catch (err) {
    rmSync(join(DIST, 'server.mjs'), { force: true });
    warn(`The storefront build failed: ${err instanceof Error ? err.message : err}`);
    return false;
  }
  console.log(`[storefront] built storefront/dist in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return true;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const built = await buildStorefront({ force: process.argv.includes('--force') });
  // Only a build asked for by hand reports failure through the exit code; installation never fails.
  process.exit(!built && process.argv.includes('--strict') ? 1 : 0);
}
