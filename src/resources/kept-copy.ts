import { type SQL, sql } from 'drizzle-orm';

// A small table a hot statement needs whole (the running promotions, the category tree) is kept in
// the service between requests, per database handle and per version of the tables it comes from
// (resource_version, moved by their triggers in the writing transaction). The statement reads the
// versions; it sends the rows only when the caller's copy is not of those versions, and the caller
// prepares them once (docs/performance.md, "Kept copies"). Exact: the versions and the rows come
// from the statement's own snapshot, and a copy is used only for the versions it was read at.

/** What a statement answers of a kept copy: the versions' text, and the rows when the caller lacks them. */
export interface KeptRead<Row> {
  /** The tables' versions as one text (null before the first write to any: then never kept). */
  version: string | null;
  rows: Row[] | null;
}

export class KeptCopy<Row, Copy> {
  private readonly kept = new WeakMap<object, { version: string; copy: Copy }>();
  /** The name of the statement's text placeholder for the caller's version. */
  readonly placeholder: string;

  /**
   * `tables`: the resource_version names the rows depend on; `rowsJson`: a sub-select answering the
   * rows as one JSON array; `prepare`: what the caller keeps of them.
   */
  constructor(
    readonly name: string,
    private readonly tables: readonly string[],
    private readonly rowsJson: SQL,
    private readonly prepare: (rows: Row[]) => Copy,
  ) {
    for (const t of tables) if (!/^[a-z_]+$/.test(t)) throw new Error(`not a table name: ${t}`);
    this.placeholder = `${name}Version`;
  }

  /** The statement's column: the versions, and the rows only for a caller of another version. */
  readJson(): SQL<KeptRead<Row>> {
    // Table names are code constants: written into the text, not sent as parameters.
    const names = sql.raw(this.tables.map((t) => `'${t}'`).join(', '));
    const known = sql`${sql.placeholder(this.placeholder)}::text`;
    // OFFSET 0 keeps the planner from pulling the version up into each of its two uses.
    return sql<KeptRead<Row>>`(select json_build_object('version', v.version, 'rows',
        case when v.version is null or v.version is distinct from ${known} then ${this.rowsJson} end)
      from (select (select string_agg(r.name || ':' || r.version, ',' order by r.name)
        from resource_version r where r.name in (${names})) as version offset 0) v)`;
  }

  /** The statement's value for the placeholder: the version kept for `db` (null: none). */
  versionFor(db: object | null): string | null {
    return db === null ? null : (this.kept.get(db)?.version ?? null);
  }

  /** Placeholder values for a statement run on `db`. */
  params(db: object | null): Record<string, string | null> {
    return { [this.placeholder]: this.versionFor(db) };
  }

  /**
   * The copy a read stands for: prepared from the rows it carries (and kept for `db` under their
   * version), else the one kept for its version. `db` null: a read inside a transaction, never kept.
   */
  copyOf(db: object | null, read: KeptRead<Row>): Copy {
    if (read.rows !== null) {
      const copy = this.prepare(read.rows);
      if (db !== null && read.version !== null) this.kept.set(db, { version: read.version, copy });
      return copy;
    }
    const held = db === null ? undefined : this.kept.get(db);
    if (held === undefined || held.version !== read.version) {
      throw new Error(`${this.name} of version ${read.version} were neither sent nor kept`);
    }
    return held.copy;
  }
}
