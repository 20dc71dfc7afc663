import postgres from 'postgres';
import type { QueryLogger } from './engine.ts';
import { parameterText } from './parameter-text.ts';
import type { JsonEngine } from './statements.ts';

/** PostgreSQL type ids of the columns an all-JSON statement answers. */
const TEXT = 25;
const JSON_TYPES = new Set([114, 3802]);

export interface PostgresStatementsOptions {
  url: string;
  max: number;
  connectMs: number;
  /** Client side: a statement not answered by then fails, and the connections are replaced. */
  queryMs: number;
  /** The startup `options` (`-c name=value …`): the same session settings as node-postgres's pool. */
  startupOptions: string;
  logger: QueryLogger;
}

/**
 * The all-JSON reads (a list page, facets, settings) on PostgreSQL, through postgres.js, which
 * can hand a column over as the bytes the server sent. node-postgres decodes every text column to
 * a string before anything sees it: a Greek list page (UTF-8, two bytes a letter) took 18-25 µs to
 * decode and as long again to encode back to bytes for the answer, and its two-byte strings grew
 * garbage collection. Here a text column arrives as its UTF-8 bytes (a Buffer) and is sent as it
 * is; a JSON column is parsed; any other as its text. Each statement is parsed once per connection
 * by its text (one bind/execute/sync exchange after that), where node-postgres also describes the
 * portal at every execution. A guest list page: about a fifth less CPU per request, service and
 * database together (docs/performance.md, "Page bytes from PostgreSQL").
 */
export class PostgresStatements implements JsonEngine {
  private sql: postgres.Sql;

  constructor(private readonly options: PostgresStatementsOptions) {
    this.sql = this.open();
  }

  async execute(name: string, text: string, params: readonly unknown[]): Promise<unknown[][]> {
    this.options.logger?.logQuery(text);
    const sql = this.sql;
    // Bound as PostgreSQL text (parameterText), as on PGlite: the server reads them by the statement's types.
    const values = params.map(parameterText) as string[];
    // `simple: false`: without it a statement without parameters goes by the simple protocol,
    // parsed and planned at every call (the facets' reads cost the database 35 µs more).
    const options: postgres.UnsafeQueryOptions & { simple: boolean } = {
      prepare: name !== '',
      simple: false,
    };
    const result = await this.bounded(sql, sql.unsafe(text, values, options).raw());
    const { columns } = result;
    return result.map((row) =>
      (row as unknown as (Buffer | null)[]).map((value, i) => {
        if (value === null) return null;
        const type = columns[i].type;
        if (type === TEXT) return value;
        return JSON_TYPES.has(type) ? JSON.parse(value.toString()) : value.toString();
      }),
    );
  }

  async end(): Promise<void> {
    await this.sql.end({ timeout: 5 });
  }

  private open(): postgres.Sql {
    const { url, max, connectMs, startupOptions } = this.options;
    const sql = postgres(url, {
      max,
      idle_timeout: 30,
      connect_timeout: connectMs / 1000,
      prepare: true,
      fetch_types: false,
      onnotice: () => {},
      connection: { options: startupOptions },
    });
    // Values arrive as text already: none is serialized again by the type the server described.
    for (const type of Object.keys(sql.options.serializers)) delete sql.options.serializers[Number(type)];
    return sql;
  }

  /**
   * The query's answer, or a 503 error after queryMs. A connection whose answer did not come is in
   * doubt (a partition swallows it): all of them are closed and new ones opened for what follows.
   */
  private bounded<T>(sql: postgres.Sql, query: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        if (this.sql === sql) {
          this.sql = this.open();
          sql.end({ timeout: 0 }).catch(() => {});
        }
        reject(Object.assign(new Error('Query read timeout'), { code: 'QUERY_TIMEOUT' }));
      }, this.options.queryMs);
    });
    return Promise.race([query, timeout]).finally(() => clearTimeout(timer));
  }
}
