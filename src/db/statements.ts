import { createHash } from 'node:crypto';
import { fillPlaceholders, type Query, type SQL, sql } from 'drizzle-orm';
import { type PgDialect, type PgSession, PgTransaction } from 'drizzle-orm/pg-core';
import type { Db } from './handle.ts';

// The one way the service runs SQL. A statement is written once with `sql.placeholder`s and named
// (one name is one SQL text); on a root handle it is prepared once and executed with each call's
// values, on a transaction it is built once per client of its transactions (a prepared query is
// bound to the connection it came from). A statement whose columns are all JSON values may take the engine's fast path
// (`json`): how the engine runs it was chosen when the database was opened (`useEngine`), so nothing
// above this file knows PGlite from PostgreSQL. One-off SQL (migrations, tests, rare writes) goes
// through `queryRows` in client.ts; SQL the query builder cannot say (data-modifying CTEs, row
// locks) that runs on a hot path through `preparedRows`.

interface Executable<R> {
  execute(values?: Record<string, unknown>): Promise<R>;
}

interface Preparable<R> {
  prepare(name: string): Executable<R>;
}

/** A statement's build: the query with its placeholders, on the handle it will run on. */
export type Build<R> = (db: Db) => Preparable<R>;

/** What an engine does better than a prepared drizzle query for all-JSON rows. */
export interface JsonEngine {
  /**
   * Rows as arrays of column values, in select order: JSON parsed, text as a string or as its
   * UTF-8 bytes (a Buffer: PostgreSQL's engine, src/db/postgres-statements.ts); the name '' runs
   * the text unnamed, parsed again.
   */
  execute(name: string, text: string, params: readonly unknown[]): Promise<unknown[][]>;
}

const engines = new WeakMap<Db, JsonEngine>();
/**
 * Prepared statements by name, per root handle or per client of transactions (on PostgreSQL the
 * pooled connection, which each new transaction session is handed again); the oldest go when
 * there are too many.
 */
const prepared = new WeakMap<object, Map<string, Executable<unknown>>>();
const MAX_PREPARED = 2000;

/** Called by openDatabase: this handle runs all-JSON statements through `engine`. */
export function useEngine(db: Db, engine: JsonEngine): void {
  engines.set(db, engine);
}

function cached<R>(owner: object, name: string, make: () => Executable<R>): Executable<R> {
  let byName = prepared.get(owner);
  if (!byName) {
    byName = new Map();
    prepared.set(owner, byName);
  }
  let statement = byName.get(name) as Executable<R> | undefined;
  if (!statement) {
    statement = make();
    const oldest = byName.keys().next();
    if (byName.size >= MAX_PREPARED && !oldest.done) byName.delete(oldest.value);
    byName.set(name, statement);
  }
  return statement;
}

/** A transaction is a Db too (the same type); only its class tells it apart. */
function isTransaction(db: Db): boolean {
  return db instanceof PgTransaction;
}

/** Runs the named statement with `values`, inside or outside a transaction. */
export function run<R>(
  db: Db,
  name: string,
  build: Build<R>,
  values: Record<string, unknown> = {},
  once = false,
): Promise<R> {
  if (isTransaction(db)) {
    if (once) return build(db).prepare('').execute(values);
    // A query prepared on a transaction runs on its session's client. drizzle makes a new session
    // for each transaction but hands it the same pooled client again: kept per client, the query
    // is built once per connection rather than at every call (the builder's CPU was a tenth of the
    // service's per paid card order).
    const { session } = db as unknown as HandleParts;
    return cached(session.client ?? session, name, () => build(db).prepare(name)).execute(values);
  }
  // Unnamed (a text holding a search's words): planned by the server for each execution and never
  // kept there, so no plan accumulates per text of q; the built query is kept here like any other.
  if (once) return cached(db, `once:${name}`, () => build(db).prepare('')).execute(values);
  return cached(db, name, () => build(db).prepare(name)).execute(values);
}

/** The FROM of a select made only of scalar subqueries (settings, versions, a page as JSON). */
export const ONE_ROW = sql`(values (1)) as one (x)`;

/** A statement named once at module level: `const cartOf = statement('cart_of', (db) => …)`, then `cartOf(db, values)`. */
export function statement<R>(name: string, build: Build<R>) {
  return (db: Db, values: Record<string, unknown> = {}): Promise<R> => run(db, name, build, values);
}

/**
 * Runs a named statement whose selected columns are all JSON values (or text) and answers its rows
 * as objects keyed by `columns`, in select order. On an engine with a fast path (parsed once by
 * name, then one bind/execute exchange per call) it takes it; in a transaction it is `run`.
 */
export async function runJson<R extends Record<string, unknown>>(
  db: Db,
  name: string,
  build: (db: Db) => Preparable<R[]> & { toSQL(): Query },
  columns: readonly (keyof R & string)[],
  values: Record<string, unknown> = {},
  once = false,
): Promise<R[]> {
  const engine = isTransaction(db) ? undefined : engines.get(db);
  if (!engine) return run(db, name, build, values, once);
  const statement = cached(db, once ? `once:${name}` : name, () => {
    const { sql: text, params } = build(db).toSQL();
    return {
      execute: async (vals: Record<string, unknown> = {}) => {
        // The engine keeps a named statement parsed; an unnamed one is parsed with each call.
        const rows = await engine.execute(once ? '' : name, text, fillPlaceholders(params, vals));
        return rows.map((row) => Object.fromEntries(columns.map((column, i) => [column, row[i]])) as R);
      },
    };
  });
  return statement.execute(values);
}

/** What drizzle keeps on every handle (a transaction's too): how it builds SQL and where it runs it. */
interface HandleParts {
  dialect: PgDialect;
  session: PgSession & { client?: object };
}

/**
 * Rows of a statement written as SQL, as `queryRows` answers them, but prepared: PostgreSQL parses
 * and plans it once per connection instead of at every execution (a fifth of its CPU per paid card
 * order, docs/performance.md). Its name on the server is `name` and a digest of its text, so each
 * shape of it (a number of lines, an optional part) is a statement of its own; a text holding
 * values seen once (a search's words) belongs in `queryRows`, or each would be kept.
 */
export async function preparedRows<T>(db: Db, name: string, query: SQL): Promise<T[]> {
  const { dialect, session } = db as unknown as HandleParts;
  const built = dialect.sqlToQuery(query);
  const digest = createHash('sha1').update(built.sql).digest('base64url').slice(0, 12);
  const result: unknown = await session.prepareQuery(built, undefined, `${name}:${digest}`, false).execute();
  const rows = typeof result === 'object' && result !== null && 'rows' in result ? result.rows : undefined;
  if (!Array.isArray(rows)) throw new Error('the database answered no rows array');
  return rows as T[];
}
