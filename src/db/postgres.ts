import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import type { Database, QueryLogger } from './engine.ts';
import { listenOnPostgres } from './listen.ts';
import { migrationsFolder, PLAN_CACHE_MODE, RANDOM_PAGE_COST, WORD_SIMILARITY_THRESHOLD } from './engine.ts';
import type { Db } from './handle.ts';
import { PostgresStatements } from './postgres-statements.ts';
import * as schema from './schema.ts';
import { useEngine } from './statements.ts';

/** Serialises migrations of several instances starting at once on one PostgreSQL. */
const MIGRATION_LOCK_ID = 72_001;

/** Every connection's session settings (docs/performance.md, docs/discovery.md). */
const SESSION_SETTINGS = {
  plan_cache_mode: PLAN_CACHE_MODE,
  'pg_trgm.word_similarity_threshold': WORD_SIMILARITY_THRESHOLD,
  random_page_cost: RANDOM_PAGE_COST,
};

/** Settings as a connection's startup `options` (one parameter, which a pooler can be told to ignore). */
function startupOptions(settings: Record<string, string>): string {
  return Object.entries(settings)
    .map(([name, value]) => `-c ${name}=${value}`)
    .join(' ');
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

export async function openPostgres(
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
    options: startupOptions(SESSION_SETTINGS),
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  // Nor a checked-out one (inside a transaction, between two queries): the pool listens only to
  // idle clients, and an 'error' without a listener would kill the process. Its next query fails
  // with the error, which answers 503 (test/hardening/db-faults.test.ts).
  pool.on('connect', (client) => client.on('error', () => {}));
  const db: Db = drizzlePg({ client: pool, schema, logger });
  const statements = new PostgresStatements({
    url,
    max: poolSize,
    connectMs: timeouts.connectMs,
    queryMs: timeouts.queryMs,
    startupOptions: startupOptions({
      ...SESSION_SETTINGS,
      statement_timeout: String(timeouts.statementMs),
      idle_in_transaction_session_timeout: String(timeouts.idleInTransactionMs),
    }),
    logger,
  });
  useEngine(db, statements);
  releaseClientsOfFailedBegin(pool, db, logger);
  return {
    db,
    engine: 'postgres',
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    ping: async () => {
      await pool.query('select 1');
    },
    listen: (channel, handlers) => listenOnPostgres(url, timeouts.connectMs, channel, handlers),
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
      await Promise.all([pool.end(), statements.end()]);
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
      handle = drizzlePg({ client, schema, logger });
      onClient.set(client, handle);
    }
    return handle;
  };
  const transaction: Db['transaction'] = async (work, config) => {
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
      client.release(err !== workError);
      throw err;
    }
  };
  db.transaction = transaction;
}
