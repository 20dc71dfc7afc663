import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

/**
 * Statements PGlite plans once. Its query API has no named statements, so every query is parsed
 * and planned again; and a utility EXECUTE takes no bound parameters. The hottest reads are
 * therefore PREPAREd once per process and EXECUTEd with their values written as literals
 * (node-postgres's escapeLiteral): a 15-row catalog page costs 110–125 µs instead of 240–350 µs.
 */
export class PgliteStatements {
  private readonly preparing = new Map<string, Promise<unknown>>();
  /**
   * PGlite runs a statement synchronously on the main thread and starts the next queued one in a
   * microtask, so statements queued together run back to back without the event loop turning: no
   * request is read and no connection accepted until the queue is empty (50 clients reading 1,000
   * products each: 200 ms between turns, and the connections that arrived last accepted one per
   * turn, 4 s late). These statements therefore run one per turn of the event loop.
   */
  private turns: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly client: PGlite,
    private readonly logger?: { logQuery(text: string): void },
  ) {}

  /** Rows as arrays of column values, in select order. */
  async execute(name: string, text: string, params: readonly unknown[]): Promise<unknown[][]> {
    let ready = this.preparing.get(name);
    if (!ready) {
      ready = this.client.query(`prepare ${name} as ${text}`);
      this.preparing.set(name, ready);
      ready.catch(() => this.preparing.delete(name));
    }
    await ready;
    this.logger?.logQuery(text);
    const args = params.length > 0 ? `(${params.map(sqlLiteral).join(', ')})` : '';
    const run = this.turns
      .then(nextTurn)
      .then(() => this.client.query<unknown[]>(`execute ${name}${args}`, [], { rowMode: 'array' }));
    this.turns = run.then(noop, noop);
    return (await run).rows;
  }
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
const noop = () => {};

/** A NUL character cannot be stored in PostgreSQL text: the same error PostgreSQL gives a bound value. */
function noNul(text: string): string {
  if (text.includes('\0')) {
    throw Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: '22021' });
  }
  return text;
}

function arrayElement(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number') return String(value);
  return `"${noNul(String(value)).replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/** A bound value as an SQL literal; the prepared statement's parameter type applies to it. */
export function sqlLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
    return `(${String(value)})`;
  }
  if (value instanceof Date) return pg.escapeLiteral(value.toISOString());
  if (Array.isArray(value)) return pg.escapeLiteral(`{${value.map(arrayElement).join(',')}}`);
  return pg.escapeLiteral(noNul(String(value)));
}
