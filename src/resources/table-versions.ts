import type { Database, Db } from '../db/client.ts';
import { statement } from '../db/statements.ts';
import { runAfterCall } from '../lib/run-after-call.ts';
import { resourceVersions } from './versions.tables.ts';

// The table versions every cached answer is checked against, kept in memory on each instance.
// Triggers move a table's resource_version row once per writing transaction and publish the new
// number with pg_notify (drizzle/0033_table_versions_notified.sql); a LISTEN connection brings it
// here. A version is held as a local stamp that changes whenever a different number is seen:
// numbers are never reused, but two transactions may commit theirs out of order, so only "did it
// change" is exact, never "which is newer".

export const VERSIONS_CHANNEL = 'resource_version';

const everyVersion = statement('resource_versions_all', (db) =>
  db.select({ name: resourceVersions.name, version: resourceVersions.version }).from(resourceVersions),
);

export class TableVersions {
  private readonly seen = new Map<string, number>();
  private readonly stamps = new Map<string, number>();
  private nextStamp = 1;
  /** False while notifications may be missed (the listening connection lost): nothing is cached. */
  live = false;
  private stopListening: (() => Promise<void>) | undefined;

  constructor(
    private readonly db: Db,
    private readonly onLost: () => void,
  ) {}

  /** Listens first, then reads every version: no change can fall between the two. */
  async start(database: Database): Promise<void> {
    this.stopListening = await database.listen(VERSIONS_CHANNEL, {
      message: (payload) => this.notified(payload),
      lost: () => {
        this.live = false;
        this.onLost();
      },
      back: () => {
        this.refresh().then(
          () => {
            this.live = true;
          },
          () => this.onLost(),
        );
      },
    });
    await this.refresh();
    this.live = true;
  }

  async stop(): Promise<void> {
    this.live = false;
    await this.stopListening?.();
  }

  /**
   * A read of every version that starts after this call, so what the caller committed counts from
   * its next request; under a burst of writes, one read catches up for all that wait together.
   */
  readonly catchUp = runAfterCall(() => this.refresh());

  /** Reads every table's version. */
  async refresh(): Promise<void> {
    const rows = await everyVersion(this.db);
    for (const row of rows) this.observe(row.name, Number(row.version));
  }

  /** The stamp of each table now, in the order given. */
  stampsOf(tables: readonly string[]): number[] {
    return tables.map((t) => this.stamps.get(t) ?? 0);
  }

  /** Whether none of the tables changed since `stamps` were taken. */
  unchanged(tables: readonly string[], stamps: readonly number[]): boolean {
    for (let i = 0; i < tables.length; i++) {
      if ((this.stamps.get(tables[i] as string) ?? 0) !== stamps[i]) return false;
    }
    return true;
  }

  private notified(payload: string): void {
    const space = payload.lastIndexOf(' ');
    const version = Number(payload.slice(space + 1));
    if (space > 0 && Number.isSafeInteger(version)) this.observe(payload.slice(0, space), version);
  }

  private observe(table: string, version: number): void {
    if (this.seen.get(table) === version) return;
    this.seen.set(table, version);
    this.stamps.set(table, this.nextStamp++);
  }
}
