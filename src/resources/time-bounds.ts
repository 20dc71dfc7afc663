import type { TableVersions } from './table-versions.ts';

/**
 * A table whose rows take effect at their own times (a sale's start and end, docs/promotions.md):
 * an answer that reads a table it `affects` depends on it too, and lasts only until its next change.
 */
export interface TimeBound {
  table: string;
  affects: readonly string[];
  /** The next instant (ms since the epoch) a row of `table` starts or stops applying; null: none. */
  nextChange(): Promise<number | null>;
}

/** The time bounds the modules declared, and each one's next change while its table stands still. */
export class TimeBounds {
  private readonly bounds: { bound: TimeBound; stamps: number[] | null; until: number | null }[] = [];

  constructor(private readonly versions: TableVersions) {}

  add(bound: TimeBound): void {
    this.bounds.push({ bound, stamps: null, until: null });
  }

  /** The tables an answer reading `tables` depends on: theirs and the bound tables affecting them. */
  widen(tables: readonly string[]): readonly string[] {
    const extra = this.bounds
      .filter(({ bound }) => bound.affects.some((t) => tables.includes(t)) && !tables.includes(bound.table))
      .map(({ bound }) => bound.table);
    return extra.length === 0 ? tables : [...tables, ...new Set(extra)].sort();
  }

  /** Until when an answer reading `tables` is right (null: until a write); one query per change. */
  async until(tables: readonly string[]): Promise<number | null> {
    let soonest: number | null = null;
    for (const entry of this.bounds) {
      if (!tables.includes(entry.bound.table)) continue;
      const stale =
        entry.stamps === null ||
        !this.versions.unchanged([entry.bound.table], entry.stamps) ||
        (entry.until !== null && Date.now() >= entry.until);
      if (stale) {
        // The stamps first: a write committed during the query makes the next call ask again.
        entry.stamps = this.versions.stampsOf([entry.bound.table]);
        entry.until = await entry.bound.nextChange();
      }
      if (entry.until !== null && (soonest === null || entry.until < soonest)) soonest = entry.until;
    }
    return soonest;
  }
}
