import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Database, QueryLogger } from './engine.ts';
import { migrationsFolder, PLAN_CACHE_MODE, SEARCH_SETTINGS_SQL } from './engine.ts';
import type { Db } from './handle.ts';
import { acquireDataDirLock, DATA_DIR_LOCK_FILE } from './lock.ts';
import { PgliteStatements } from './pglite-statements.ts';
import * as schema from './schema.ts';
import { useEngine } from './statements.ts';

// The embedded engine: a data directory (or memory), created once from a kept cluster copy.

export async function openPglite(
  dataDir: string,
  logger: QueryLogger,
  onStage: (text: string) => void = () => {},
  startFrom?: Blob,
): Promise<Database> {
  const inMemory = dataDir === 'memory://';
  const lock = inMemory ? undefined : acquireDataDirLock(dataDir);
  if (!inMemory) mkdirSync(dataDir, { recursive: true });
  if (!inMemory && !existsSync(join(dataDir, 'PG_VERSION'))) {
    onStage(`new data directory ${dataDir}: creating the database (once)`);
    // Made beside it and moved in: restoring a kept cluster empties its directory, lock file included.
    const fresh = `${dataDir}.new-${process.pid}`;
    rmSync(fresh, { recursive: true, force: true });
    await initialiseInWorker(fresh);
    for (const entry of readdirSync(fresh)) {
      if (entry !== DATA_DIR_LOCK_FILE) renameSync(join(fresh, entry), join(dataDir, entry));
    }
    rmSync(fresh, { recursive: true, force: true });
  }
  // Loaded only here: on PostgreSQL the embedded engine's modules would cost some 50 MB of memory for nothing.
  const [pgliteModule, { drizzle: drizzlePglite }, { migrate: migratePglite }, { pg_trgm }, { unaccent }] =
    await Promise.all([
      import('@electric-sql/pglite'),
      import('drizzle-orm/pglite'),
      import('drizzle-orm/pglite/migrator'),
      // Catalog search (drizzle/0015_…): trigram indexes and accent folding, as on PostgreSQL.
      import('@electric-sql/pglite/contrib/pg_trgm'),
      import('@electric-sql/pglite/contrib/unaccent'),
    ]);
  const { PGlite } = pgliteModule;
  const client = new PGlite({
    dataDir: inMemory ? undefined : dataDir,
    loadDataDir: inMemory ? startFrom : undefined,
    extensions: { pg_trgm, unaccent },
  });
  await client.waitReady;
  await client.exec(`set plan_cache_mode = ${PLAN_CACHE_MODE}; ${SEARCH_SETTINGS_SQL}`);
  const db: Db = drizzlePglite({ client, schema, logger });
  // PGlite plans every query of its API again: all-JSON reads are parsed once and bound per call instead.
  useEngine(db, new PgliteStatements(client, pgliteModule, logger));
  return {
    db,
    engine: 'pglite',
    ping: async () => {
      await client.query('select 1');
    },
    // One embedded connection: notifications arrive with the commit that sent them, never lost.
    listen: async (channel, handlers) => {
      const stop = await client.listen(channel, handlers.message);
      return () => stop();
    },
    migrate: async () => {
      await migratePglite(drizzlePglite({ client, schema }), { migrationsFolder });
    },
    dump: async () => client.dumpDataDir('none'),
    close: async () => {
      await client.close();
      lock?.release();
    },
  };
}

/**
 * Where a copy of a freshly created cluster is kept for the next new data directory: initdb is
 * most of a first start (some 60 %), restoring its result takes a fraction of that. Per PGlite
 * version, in node_modules/.cache next to PGlite; undefined when that cannot be found.
 */
function clusterTemplatePath(pgliteModule: string): string | undefined {
  const file = fileURLToPath(pgliteModule);
  const at = file.lastIndexOf(`${sep}node_modules${sep}`);
  if (at < 0) return undefined;
  const modules = file.slice(0, at + `${sep}node_modules`.length);
  try {
    const pkg = JSON.parse(readFileSync(join(modules, '@electric-sql', 'pglite', 'package.json'), 'utf8'));
    return join(modules, '.cache', 'shop-api', `pglite-${pkg.version}-cluster.tar`);
  } catch {
    return undefined;
  }
}

/**
 * Keeps the copy of a fresh cluster ahead of the first start (run after `npm install`), so even
 * the very first start on a new data directory restores it instead of running initdb.
 */
export async function keepClusterTemplate(): Promise<'kept' | 'already kept' | 'no place for it'> {
  const template = clusterTemplatePath(import.meta.resolve('@electric-sql/pglite'));
  if (!template) return 'no place for it';
  if (existsSync(template)) return 'already kept';
  const scratch = mkdtempSync(join(tmpdir(), 'shop-cluster-'));
  try {
    await initialiseInWorker(join(scratch, 'data'));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return existsSync(template) ? 'kept' : 'no place for it';
}

/**
 * Creating a cluster (initdb) grows the WebAssembly heap by some 400 MB that an instance never
 * gives back; doing it in a worker thread that then exits leaves the server's memory lean. The
 * worker restores the kept copy of a fresh cluster when there is one, else runs initdb and keeps a
 * copy (best effort: a read-only node_modules only means the next first start runs initdb too).
 */
async function initialiseInWorker(dataDir: string): Promise<void> {
  const code = `
    const { workerData } = require('node:worker_threads');
    const fs = require('node:fs');
    const path = require('node:path');
    import(workerData.module).then(async ({ PGlite }) => {
      const template = workerData.template;
      if (template && fs.existsSync(template)) {
        const db = new PGlite({ dataDir: workerData.dataDir, loadDataDir: new Blob([fs.readFileSync(template)]) });
        await db.waitReady;
        await db.close();
        return;
      }
      const db = new PGlite(workerData.dataDir);
      await db.waitReady;
      if (template) {
        try {
          const dump = Buffer.from(await (await db.dumpDataDir('none')).arrayBuffer());
          fs.mkdirSync(path.dirname(template), { recursive: true });
          const partial = template + '.' + process.pid + '.part';
          fs.writeFileSync(partial, dump);
          fs.renameSync(partial, template);
        } catch {}
      }
      await db.close();
    });`;
  const module = import.meta.resolve('@electric-sql/pglite');
  const worker = new Worker(code, {
    eval: true,
    workerData: { dataDir, module, template: clusterTemplatePath(module) },
  });
  await new Promise<void>((resolve, reject) => {
    worker.once('error', reject);
    worker.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`initdb worker exited with ${code}`)),
    );
  });
}
