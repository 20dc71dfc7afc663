import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { ONE_ROW, statement } from '../db/statements.ts';
import type { KeptParameters, KeptValues, Scope } from './types.ts';

// A small table a hot statement needs whole (the running promotions, the category tree) is kept in
// the service between requests, per database handle and per version of the tables it comes from
// (resource_version, moved by their triggers in the writing transaction). The hot statement reads
// only the versions (`keptVersionsJson`, one column for all it keeps); the rows are read by a
// statement of their own, with their versions in the same snapshot, only when the copy kept is not
// of the versions the hot statement saw (docs/performance.md, "Kept copies"). Exact: a copy is used only for the versions it was read
// at. No version row yet (null) is a version too: the first write to any of the tables makes one.

/** resource_version of some tables as a JSON object, name → version (a table never written: absent). */
function versionsJson(tables: readonly string[]): SQL<Record<string, number> | null> {
  for (const t of tables) if (!/^[a-z_]+$/.test(t)) throw new Error(`not a table name: ${t}`);
  // Table names are code constants: written into the text, not sent as parameters.
  const names = sql.raw(tables.map((t) => `'${t}'`).join(', '));
  return sql`(select json_object_agg(r.name, r.version) from resource_version r where r.name in (${names}))`;
}

/** The hot statement's one column for several kept copies: their tables' versions, read at once. */
export function keptVersionsJson(copies: readonly { tables: readonly string[] }[]) {
  return versionsJson([...new Set(copies.flatMap((c) => c.tables))].sort());
}

/** Table versions as a statement answers them: name → version (a number, or text in the page statement). */
export type TableVersions = Record<string, number | string> | null;

export class KeptCopy<Row, Copy> {
  private readonly kept = new WeakMap<object, { versions: (string | undefined)[]; copy: Copy }>();
  private readonly read: (db: Db) => Promise<{ versions: TableVersions; rows: Row[] }[]>;

  /**
   * `tables`: the resource_version names the rows depend on; `rowsJson`: a sub-select answering the
   * rows as one JSON array; `prepare`: what the caller keeps of them.
   */
  constructor(
    readonly name: string,
    readonly tables: readonly string[],
    rowsJson: SQL,
    private readonly prepare: (rows: Row[]) => Copy,
  ) {
    this.read = statement(`kept_${name}`, (db) =>
      db.select({ versions: versionsJson(tables), rows: sql<Row[]>`${rowsJson}` }).from(ONE_ROW),
    );
  }

  /** Its tables' versions, in its order, from a versions object (keptVersionsJson's). */
  private versionsIn(versions: TableVersions): (string | undefined)[] {
    return this.tables.map((t) => (versions?.[t] === undefined ? undefined : String(versions[t])));
  }

  /** The copy kept for `keepOn` when it is of these versions (a keptVersionsJson column), else undefined. */
  keptAt(keepOn: Db, versions: TableVersions): Copy | undefined {
    const held = this.kept.get(keepOn);
    if (held === undefined) return undefined;
    const seen = this.versionsIn(versions);
    for (let i = 0; i < this.tables.length; i++) {
      if (held.versions[i] !== seen[i]) return undefined;
    }
    return held.copy;
  }

  /**
   * The copy last kept for `keepOn` whatever its versions, for a statement that takes its values
   * as parameters (ResourceDef.keptValues): that statement answers the versions, and the caller
   * uses its answer only when `keptAt` finds the copy of them.
   */
  lastKept(keepOn: Db): Copy | undefined {
    return this.kept.get(keepOn)?.copy;
  }

  /**
   * The copy of the versions a statement on `readOn` saw: the one kept for `keepOn` when it is of
   * them, else read on `readOn` (and kept for `keepOn` when that is where it was read). Inside a
   * transaction `readOn` is the transaction and `keepOn` its pool: a copy read there is not kept.
   */
  async copyAt(keepOn: Db, readOn: Db, versions: TableVersions): Promise<Copy> {
    const held = this.keptAt(keepOn, versions);
    if (held !== undefined) return held;
    const [row] = await this.read(readOn);
    const copy = this.prepare(row.rows);
    if (readOn === keepOn) this.kept.set(keepOn, { versions: this.versionsIn(row.versions), copy });
    return copy;
  }
}

/** A resource's kept values (ResourceDef.keptValues): `values` turns the copy into its statement's parameters. */
export function keptValues<Row, Copy>(
  copy: KeptCopy<Row, Copy>,
  values: (copy: Copy, now: Date) => KeptParameters,
  scopes: readonly Scope[],
): KeptValues {
  return {
    copy: copy as unknown as KeptCopy<unknown, unknown>,
    values: values as (copy: unknown, now: Date) => KeptParameters,
    scopes,
  };
}
