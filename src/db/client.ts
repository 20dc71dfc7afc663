import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { Worker } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import type { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { acquireDataDirLock, DATA_DIR_LOCK_FILE } from './lock.ts';
import { PgliteStatements } from './pglite-statements.ts';
import { useEngine } from './statements.ts';
import * as schema from './schema.ts';

import type { Db } from './handle.ts';

export type { Db };

export interface Database {
  db: Db;
  engine: 'pglite' | 'postgres';
  /** PostgreSQL's connection pool as it is now; PGlite has one embedded connection and no pool. */
  poolStats?(): { total: number; idle: number; waiting: number };
  /** Runs a trivial query; throws when the database cannot answer. */
  ping(): Promise<void>;
  migrate(): Promise<void>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl?: string;
  dataDir: string;
  poolSize?: number;
  /** PostgreSQL timeouts; the defaults suit production, fault tests shorten them. */
  timeouts?: Partial<PostgresTimeouts>;
  /** Told the SQL text of every statement the service runs (debugging, and tests counting statements). */
  onQuery?: (text: string) => void;
  /** Told what a slow step of opening is doing (the first start's initdb), for the start's progress lines. */
  onStage?: (text: string) => void;
}

export interface PostgresTimeouts {
  /** Opening a connection, or waiting for a free one in the pool. */
  connectMs: number;
  /** Server side: a statement running longer is cancelled. */
  statementMs: number;
  /** Client side: an answer not received by then fails the query, even when the network swallows it. */
  queryMs: number;
  idleInTransactionMs: number;
}

const DEFAULT_TIMEOUTS: PostgresTimeouts = {
  connectMs: 5_000,
  statementMs: 15_000,
  queryMs: 20_000,
  idleInTransactionMs: 30_000,
};

/** The project's drizzle/ folder, from src/db/ when run as TypeScript or from dist/ when built. */
function findMigrationsFolder(): string {
  for (const relative of ['../../drizzle', '../drizzle']) {
    const folder = fileURLToPath(new URL(relative, import.meta.url));
    if (existsSync(join(folder, 'meta', '_journal.json'))) return folder;
  }
  throw new Error('drizzle/ migrations folder not found next to the server code');
}

const migrationsFolder = findMigrationsFolder();
/** Serialises migrations of several instances starting at once on one PostgreSQL. */
const MIGRATION_LOCK_ID = 72_001;

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const logger = options.onQuery ? { logQuery: options.onQuery } : undefined;
  return options.databaseUrl
    ? openPostgres(
        options.databaseUrl,
        options.poolSize ?? 10,
        { ...DEFAULT_TIMEOUTS, ...options.timeouts },
        logger,
      )
    : openPglite(options.dataDir, logger, options.onStage);
}

/**
 * Every statement the service runs is prepared once and executed many times with other values;
 * PostgreSQL would otherwise plan most of them again on every execution (a custom plan), which
 * was half of its CPU per catalog list. Generic plans are planned once per connection; the
 * product plans test checks they stay index scans (test/catalog/product-indexes.test.ts).
 */
export const PLAN_CACHE_MODE = 'force_generic_plan';

/**
 * Catalog search tolerates one typo in a word of five letters or more through pg_trgm's word
 * similarity (`%>`, index-driven). Its default threshold 0.6 misses most single typos: a changed
 * middle letter of a five-letter word scores 0.33 (grind/grand), a swap 0.44 (epsresso); 0.3
 * finds them (docs/discovery.md).
 */
export const WORD_SIMILARITY_THRESHOLD = '0.3';
/**
 * The planner's price of a random page read: 1.1 (solid-state storage) rather than 4 (spinning
 * disks). At 4 it reads a 10,000-product table whole rather than through the trigram index even
 * for a word 1 % of the products hold (test/catalog/product-indexes.test.ts).
 */
export const RANDOM_PAGE_COST = '1.1';
const SEARCH_SETTINGS_SQL = `set pg_trgm.word_similarity_threshold = ${WORD_SIMILARITY_THRESHOLD}; set random_page_cost = ${RANDOM_PAGE_COST}`;

type QueryLogger = { logQuery(text: string): void } | undefined;

async function openPglite(
  dataDir: string,
  logger: QueryLogger,
  onStage: (text: string) => void = () => {},
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
  const client = new PGlite({ dataDir: inMemory ? undefined : dataDir, extensions: { pg_trgm, unaccent } });
  await client.waitReady;
  await client.exec(`set plan_cache_mode = ${PLAN_CACHE_MODE}; ${SEARCH_SETTINGS_SQL}`);
  const db = drizzlePglite({ client, schema, logger }) as unknown as Db;
  // PGlite plans every query of its API again: all-JSON reads are parsed once and bound per call instead.
  useEngine(db, new PgliteStatements(client, pgliteModule, logger));
  return {
    db,
    engine: 'pglite',
    ping: async () => {
      await client.query('select 1');
    },
    migrate: async () => {
      await migratePglite(drizzlePglite({ client, schema }), { migrationsFolder });
    },
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

async function openPostgres(
  url: string,
  poolSize: number,
  timeouts: PostgresTimeouts,
  logger: QueryLogger,
): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: timeouts.connectMs,
    idleTimeoutMillis: 30_000,
    // A statement that runs longer than this is a fault, not a slow answer.
    statement_timeout: timeouts.statementMs,
    // The server cannot cancel what it never receives (a partition, a hung backend): without a
    // client-side bound such a request would hang (test/hardening/db-faults.test.ts).
    query_timeout: timeouts.queryMs,
    idle_in_transaction_session_timeout: timeouts.idleInTransactionMs,
    options: `-c plan_cache_mode=${PLAN_CACHE_MODE} -c pg_trgm.word_similarity_threshold=${WORD_SIMILARITY_THRESHOLD} -c random_page_cost=${RANDOM_PAGE_COST}`,
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  // Nor a checked-out one (inside a transaction, between two queries): the pool listens only to
  // idle clients, and an 'error' without a listener would kill the process. Its next query fails
  // with the error, which answers 503 (test/hardening/db-faults.test.ts).
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = drizzlePg({ client: pool, schema, logger }) as unknown as Db;
  releaseClientsOfFailedBegin(pool, db, logger);
  return {
    db,
    engine: 'postgres',
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    ping: async () => {
      await pool.query('select 1');
    },
    migrate: async () => {
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
        await migratePg(drizzlePg({ client, schema }), { migrationsFolder });
      } finally {
        await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => {});
        client.release();
      }
    },
    close: async () => {
      await pool.end();
    },
  };
}

/**
 * drizzle's transaction() releases its pool client in a `finally` that is entered only after
 * BEGIN succeeded: a connection lost at BEGIN keeps its client checked out for ever, and a few
 * such faults exhaust the pool (test/hardening/db-faults.test.ts). So the root handle's
 * transactions check out their client here and run drizzle's transaction on it; the client goes
 * back in every case, and is dropped when BEGIN, COMMIT or ROLLBACK failed (its connection is then
 * in doubt). No AsyncLocalStorage: one in use turns on promise hooks for the whole process, which
 * cost every request about a third more CPU (docs/performance.md).
 */
function releaseClientsOfFailedBegin(pool: pg.Pool, db: Db, logger: QueryLogger): void {
  const onClient = new WeakMap<pg.PoolClient, Db>();
  const handleOf = (client: pg.PoolClient): Db => {
    let handle = onClient.get(client);
    if (!handle) {
      handle = drizzlePg({ client, schema, logger }) as unknown as Db;
      onClient.set(client, handle);
    }
    return handle;
  };
  db.transaction = (async (work, config) => {
    const client = await pool.connect();
    let workError: unknown;
    try {
      const result = await handleOf(client).transaction(async (tx) => {
        try {
          return await work(tx);
        } catch (err) {
          workError = err;
          throw err;
        }
      }, config);
      client.release();
      return result;
    } catch (err) {
      // The work's own error comes back after a successful ROLLBACK: the connection is sound.
      client.release(err === workError ? undefined : (err as Error));
      throw err;
    }
  }) as Db['transaction'];
}

/** Rows of a raw query, the same shape on both engines. */
export async function queryRows<T>(db: Db, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
