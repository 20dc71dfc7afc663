import { createHash } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import PgBoss from 'pg-boss';
import { type Db, queryRows } from '../../db/client.ts';

/**
 * The job queue: pg-boss, in the `pgboss` schema of the shop's own database, so every instance
 * on one PostgreSQL shares it (a job is fetched with SKIP LOCKED by exactly one worker). On
 * PGlite it runs over the same embedded connection through pg-boss's `db` adapter; PGlite runs
 * one statement at a time, which pg-boss's queries are content with.
 */
export type Queue = PgBoss;

interface SqlResult {
  rows: unknown[];
}

/** The driver's client under a drizzle handle: a pg.Pool, or PGlite (which has exec and waitReady). */
interface DriverClient {
  query(text: string, values?: unknown[]): Promise<SqlResult>;
  exec?(text: string): Promise<SqlResult[]>;
  waitReady?: Promise<void>;
}

function isDriverClient(value: unknown): value is DriverClient {
  return typeof value === 'object' && value !== null && 'query' in value && typeof value.query === 'function';
}

/** pg-boss's database adapter over the connection the app already holds (pg.Pool or PGlite). */
function adapterOf(db: Db): { executeSql(text: string, values?: unknown[]): Promise<SqlResult> } {
  const client = '$client' in db ? db.$client : undefined;
  if (!isDriverClient(client)) throw new Error('the database handle has no driver client for the queue');
  // pg-boss sends its schema migrations as one multi-statement string without parameters, which
  // PGlite accepts only through exec().
  const pgliteExec = client.waitReady !== undefined ? client.exec?.bind(client) : undefined;
  return {
    async executeSql(text, values) {
      if (pgliteExec && (!values || values.length === 0)) {
        const results = await pgliteExec(text);
        return results[results.length - 1] ?? { rows: [] };
      }
      return client.query(text, values);
    },
  };
}

/**
 * pg-boss's executor over a transaction of the app's (`queue.insert(jobs, { db })`): the jobs are
 * written with the rows they serve, or not at all. pg-boss's numbered parameters become drizzle's.
 */
export function inTransaction(tx: Db): { executeSql(text: string, values?: unknown[]): Promise<SqlResult> } {
  return {
    async executeSql(text, values = []) {
      const parts = text.split(/\$(\d+)/);
      const chunks: SQL[] = parts.map((part, i) =>
        // An unset option (undefined) is bound as NULL, as node-postgres binds it.
        i % 2 === 0 ? sql.raw(part) : sql`${values[Number(part) - 1] ?? null}`,
      );
      return { rows: await queryRows<unknown>(tx, sql.join(chunks)) };
    },
  };
}

export async function startQueue(
  db: Db,
  options: {
    onError: (err: Error) => void;
    maintenanceIntervalSeconds?: number;
    /**
     * The queue lives in PGlite: one process owns it (jobs left active were a dead process's), and
     * pg-boss's cron schedules are on for the vacuum PGlite lacks (vacuum.ts).
     */
    embedded: boolean;
  },
): Promise<Queue> {
  const adapter = tracked(adapterOf(db));
  const settings: PgBoss.ConstructorOptions = {
    db: adapter,
    schema: 'pgboss',
    // Events reach the queue by the relay timer (src/modules/outbox/relay.ts), not by a schedule.
    schedule: options.embedded,
    maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? 60,
  };
  const boss = new PgBoss(settings);
  boss.on('error', options.onError);
  await boss.start();
  if (options.embedded) {
    // PGlite's data directory belongs to one process: a job still active at start was taken by
    // a process that died, and is handed out again now rather than after its expiry.
    await adapter.executeSql(
      "update pgboss.job set state = 'retry', start_after = now() where state = 'active'",
    );
  }
  statementsOf.set(boss, adapter.inFlight);
  return boss;
}

const statementsOf = new WeakMap<Queue, Set<Promise<unknown>>>();

/** The adapter, noting the statements it has under way. */
function tracked(adapter: ReturnType<typeof adapterOf>) {
  const inFlight = new Set<Promise<unknown>>();
  return {
    inFlight,
    executeSql(text: string, values?: unknown[]): Promise<SqlResult> {
      const statement = adapter.executeSql(text, values);
      const settled = statement.then(
        () => {},
        () => {},
      );
      inFlight.add(settled);
      void settled.then(() => inFlight.delete(settled));
      return statement;
    },
  };
}

/**
 * Stops the workers, then waits for what is still under way: the handlers in `running` (a batch
 * fetched while stop() began still runs) and the queue's statements, since pg-boss completes or
 * fails a worker's jobs without awaiting it. The database must not close under either: a statement
 * failing on a closed pool there would be an unhandled rejection.
 */
export async function stopQueue(
  queue: Queue,
  options: PgBoss.StopOptions,
  running: ReadonlySet<Promise<unknown>>,
): Promise<void> {
  await queue.stop(options);
  await Promise.allSettled([...running]);
  await Promise.all(statementsOf.get(queue) ?? []);
}

/**
 * A job id derived from what the job does, so queueing the same attempt twice (a relay that ran
 * again after a crash, two instances racing) inserts one job: pg-boss ignores a known id.
 */
export function jobIdOf(key: string): string {
  const hex = createHash('sha256').update(key).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * A job of the outbox's workers: its id derived from `key` (jobIdOf), and pg-boss's own retries,
 * which cover only a worker that died or a database error mid-run (an attempt's failure is the
 * caller's to record and schedule). The expiry is the queue's (src/modules/outbox/index.ts).
 */
export function keyedJob<T extends object>(
  name: string,
  key: string,
  data: T,
  options: { startAfter?: Date | null; retryLimit?: number } = {},
): PgBoss.JobInsert<T> {
  return {
    id: jobIdOf(key),
    name,
    data,
    startAfter: options.startAfter ?? undefined,
    retryLimit: options.retryLimit ?? 3,
    retryDelay: 1,
    retryBackoff: true,
  };
}

/**
 * The wait before attempt `attempt + 1` after attempt `attempt` failed: geometric from `baseMs`
 * after the first failure to `maxMs` after the last but one, so `maxAttempts` attempts span
 * 30 s … 12 h with the defaults.
 */
export function retryDelayMs(attempt: number, baseMs: number, maxMs: number, maxAttempts: number): number {
  const steps = Math.max(1, maxAttempts - 2);
  const ratio = (maxMs / baseMs) ** (1 / steps);
  return Math.min(maxMs, Math.round(baseMs * ratio ** Math.max(0, attempt - 1)));
}
