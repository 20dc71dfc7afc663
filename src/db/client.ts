import type { sql } from 'drizzle-orm';
import type { Database } from './engine.ts';
import type { Db } from './handle.ts';
import { openPglite } from './pglite.ts';
import { openPostgres, type PostgresTimeouts } from './postgres.ts';

// Opening the database: PGlite in DATA_DIR (or memory) by default, PostgreSQL with DATABASE_URL.
// Nothing above src/db knows which engine runs.

export type { Database, Db, PostgresTimeouts };
export { PLAN_CACHE_MODE, RANDOM_PAGE_COST, WORD_SIMILARITY_THRESHOLD } from './engine.ts';

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
  /** PGlite in memory only: start from this cluster (an earlier `dump()`) instead of a new one. */
  startFrom?: Blob;
}

const DEFAULT_TIMEOUTS: PostgresTimeouts = {
  connectMs: 5_000,
  statementMs: 15_000,
  queryMs: 20_000,
  idleInTransactionMs: 30_000,
};

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const logger = options.onQuery ? { logQuery: options.onQuery } : undefined;
  return options.databaseUrl
    ? openPostgres(
        options.databaseUrl,
        options.poolSize ?? 10,
        { ...DEFAULT_TIMEOUTS, ...options.timeouts },
        logger,
      )
    : openPglite(options.dataDir, logger, options.onStage, options.startFrom);
}

/**
 * Rows of a raw query, the same shape on both engines: the one way to run SQL that is neither a
 * drizzle builder nor a prepared statement of src/db/statements.ts (docs/conventions.md).
 */
export async function queryRows<T>(db: Db, query: ReturnType<typeof sql>): Promise<T[]> {
  const result: unknown = await db.execute(query);
  const rows = typeof result === 'object' && result !== null && 'rows' in result ? result.rows : undefined;
  if (!Array.isArray(rows)) throw new Error('the database answered no rows array');
  return rows;
}
