import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { ONE_ROW, statement } from '../db/statements.ts';

// A small table a hot statement needs whole (the running promotions, the category tree) is kept in
// the service between requests, per database handle and per version of the tables it comes from
// (resource_version, moved by their triggers in the writing transaction). The hot statement reads
// only the versions (`versionJson`); the rows are read by a statement of their own, with their
// versions in the same snapshot, only when the copy kept is not of the versions the hot statement
// saw (docs/performance.md, "Kept copies"). Exact: a copy is used only for the versions it was read
// at. No version row yet (null) is a version too: the first write to any of the tables makes one.

export class KeptCopy<Row, Copy> {
  private readonly kept = new WeakMap<object, { version: string | null; copy: Copy }>();
  private readonly version: SQL<string | null>;
  private readonly read: (db: Db) => Promise<{ version: string | null; rows: Row[] }[]>;

  /**
   * `tables`: the resource_version names the rows depend on; `rowsJson`: a sub-select answering the
   * rows as one JSON array; `prepare`: what the caller keeps of them.
   */
  constructor(
    readonly name: string,
    tables: readonly string[],
    rowsJson: SQL,
    private readonly prepare: (rows: Row[]) => Copy,
  ) {
    for (const t of tables) if (!/^[a-z_]+$/.test(t)) throw new Error(`not a table name: ${t}`);
    // Table names are code constants: written into the text, not sent as parameters.
    const names = sql.raw(tables.map((t) => `'${t}'`).join(', '));
    this.version = sql<string | null>`(select string_agg(r.name || ':' || r.version, ',' order by r.name)
      from resource_version r where r.name in (${names}))`;
    this.read = statement(`kept_${name}`, (db) =>
      db.select({ version: this.version, rows: sql<Row[]>`${rowsJson}` }).from(ONE_ROW),
    );
  }

  /** The hot statement's column: the tables' versions as one text (null before any was written). */
  versionJson(): SQL<string | null> {
    return this.version;
  }

  /**
   * The copy of the versions a statement on `readOn` saw: the one kept for `keepOn` when it is of
   * them, else read on `readOn` (and kept for `keepOn` when that is where it was read). Inside a
   * transaction `readOn` is the transaction and `keepOn` its pool: a copy read there is not kept.
   */
  async copyAt(keepOn: Db, readOn: Db, version: string | null): Promise<Copy> {
    const held = this.kept.get(keepOn);
    if (held !== undefined && held.version === version) return held.copy;
    const [row] = await this.read(readOn);
    const copy = this.prepare(row.rows);
    if (readOn === keepOn) this.kept.set(keepOn, { version: row.version, copy });
    return copy;
  }
}
