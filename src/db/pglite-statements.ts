import type { PGlite, protocol as pgliteProtocol, types as pgliteTypes } from '@electric-sql/pglite';
import { parameterText } from './parameter-text.ts';

/** What this file needs of the PGlite module, which client.ts loads only when PGlite is the engine. */
export interface PgliteWire {
  protocol: typeof pgliteProtocol;
  types: typeof pgliteTypes;
}

/**
 * Statements PGlite plans once. Its `query()` parses and plans every statement again and talks to
 * the database in six protocol exchanges (parse, describe, bind, describe, execute, sync). The
 * hottest reads are therefore parsed once per process under their name, with their result types
 * described once, and each call is one exchange: bind the values (as parameters, never as SQL
 * text), execute, sync. Guest list statement (15 products): 355 → 237 µs; a one-row `select` of
 * five parameters: 116–142 → 40 µs (docs/performance.md).
 */
export class PgliteStatements {
  /** Result column types per statement name, once it is parsed. */
  private readonly prepared = new Map<string, Promise<number[]>>();
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
    private readonly wire: PgliteWire,
    private readonly logger?: { logQuery(text: string): void },
  ) {}

  /** Rows as arrays of column values, in select order. */
  async execute(name: string, text: string, params: readonly unknown[]): Promise<unknown[][]> {
    if (name === '') return this.executeUnnamed(text, params);
    let prepared = this.prepared.get(name);
    if (!prepared) {
      prepared = this.prepare(name, text);
      this.prepared.set(name, prepared);
      prepared.catch(() => this.prepared.delete(name));
    }
    const columnTypes = await prepared;
    this.logger?.logQuery(text);
    const { messages } = await this.inTurn(
      concat(this.bindAndExecute(name, params), this.wire.protocol.serialize.sync()),
    );
    return this.rowsOf(messages, columnTypes);
  }

  /**
   * A statement kept by no name (its text holds values seen once, a search's words): parsed,
   * described, bound and executed in the same one exchange, so no other statement comes between.
   */
  private async executeUnnamed(text: string, params: readonly unknown[]): Promise<unknown[][]> {
    this.logger?.logQuery(text);
    const { serialize, messages: kinds } = this.wire.protocol;
    const { messages } = await this.inTurn(
      concat(
        serialize.parse({ name: '', text }),
        serialize.describe({ type: 'S', name: '' }),
        this.bindAndExecute('', params),
        serialize.sync(),
      ),
    );
    const description = messages.find((m) => m instanceof kinds.RowDescriptionMessage);
    const columnTypes =
      description instanceof kinds.RowDescriptionMessage ? description.fields.map((f) => f.dataTypeID) : [];
    return this.rowsOf(messages, columnTypes);
  }

  private bindAndExecute(name: string, params: readonly unknown[]): Uint8Array {
    const { serialize } = this.wire.protocol;
    return concat(
      serialize.bind({ statement: name, values: params.map(parameterText) }),
      serialize.execute({}),
    );
  }

  /** One exchange in its own turn of the event loop (see `turns`). */
  private inTurn(message: Uint8Array) {
    const run = this.turns.then(nextTurn).then(() => this.exchange(message));
    this.turns = run.then(noop, noop);
    return run;
  }

  private rowsOf(messages: readonly unknown[], columnTypes: number[]): unknown[][] {
    const rows: unknown[][] = [];
    for (const message of messages) {
      if (message instanceof this.wire.protocol.messages.DataRowMessage) {
        rows.push(
          message.fields.map((field, i) =>
            this.wire.types.parseType(field, columnTypes[i], this.client.parsers),
          ),
        );
      }
    }
    return rows;
  }

  /** Parses the statement under its name and answers the types of its result columns. */
  private async prepare(name: string, text: string): Promise<number[]> {
    const { serialize, messages } = this.wire.protocol;
    const { messages: answer } = await this.exchange(
      concat(serialize.parse({ name, text }), serialize.describe({ type: 'S', name }), serialize.sync()),
    );
    const description = answer.find((m) => m instanceof messages.RowDescriptionMessage);
    return description instanceof messages.RowDescriptionMessage
      ? description.fields.map((f) => f.dataTypeID)
      : [];
  }

  /**
   * One protocol exchange, taken as PGlite's own `query()` takes it: never inside a transaction
   * another caller has open on the one connection (its uncommitted rows would be read), and never
   * between the messages of another statement. A database error rejects with its SQLSTATE `code`.
   */
  private exchange(message: Uint8Array) {
    return this.client._runExclusiveTransaction(() =>
      this.client._runExclusiveQuery(() => this.client.execProtocol(message)),
    );
  }
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
const noop = () => {};

function concat(...parts: Uint8Array[]): Uint8Array {
  const whole = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    whole.set(part, offset);
    offset += part.length;
  }
  return whole;
}
