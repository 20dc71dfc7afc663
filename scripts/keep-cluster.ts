// Runs after `npm install` / `npm ci` (package.json postinstall): creates the embedded database's
// fresh cluster once and keeps a copy in node_modules/.cache, so the first `npm start` on a new
// data directory restores it instead of running initdb (docs/performance.md, "First start").
// Never fails the installation: without the copy the first start only takes longer.
import { keepClusterTemplate } from '../src/db/pglite.ts';

const started = performance.now();
try {
  const result = await keepClusterTemplate();
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`[database] fresh embedded cluster ${result} (${seconds} s)`);
} catch (error) {
  console.warn(`[database] no fresh cluster kept (${(error as Error).message}); the first start creates it`);
}
