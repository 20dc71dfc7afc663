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

/** A declared bound, and its next change as read when its table had these stamps (null: not read yet). */
interface KnownBound {
  bound: TimeBound;
  stamps: number[] | null;
  until: number | null;
}

/** The time bounds the modules declared, and each one's next change while its table stands still. */
export class TimeBounds {
  private readonly bounds: KnownBound[] = [];
  /** `widen`'s answers by the route's own list: asked on every miss, they change only with `add`. */
  private widened = new WeakMap<readonly string[], readonly string[]>();

  constructor(private readonly versions: TableVersions) {}

  add(bound: TimeBound): void {
    this.bounds.push({ bound, stamps: null, until: null });
    this.widened = new WeakMap();
  }

  /** The tables an answer reading `tables` depends on: theirs and the bound tables affecting them. */
  widen(tables: readonly string[]): readonly string[] {
    let wide = this.widened.get(tables);
    if (wide === undefined) {
      wide = this.widenNow(tables);
      this.widened.set(tables, wide);
    }
    return wide;
  }

  private widenNow(tables: readonly string[]): readonly string[] {
    const extra = this.bounds
      .filter(({ bound }) => bound.affects.some((t) => tables.includes(t)) && !tables.includes(bound.table))
      .map(({ bound }) => bound.table);
    return extra.length === 0 ? tables : [...tables, ...new Set(extra)].sort();
  }

  /** Until when an answer reading `tables` is right (null: until a write); one query per change. */
  async until(tables: readonly string[]): Promise<number | null> {
    for (const entry of this.bounds) {
      if (tables.includes(entry.bound.table) && this.stale(entry)) {
        // The stamps first: a write committed during the query makes the next call ask again.
        entry.stamps = this.versions.stampsOf([entry.bound.table]);
        entry.until = await entry.bound.nextChange();
      }
    }
    return this.soonest(tables);
  }

  /** `until` without waiting, when no bound of `tables` has to be asked again; else undefined. */
  untilIfKnown(tables: readonly string[]): number | null | undefined {
    for (const entry of this.bounds) {
      if (tables.includes(entry.bound.table) && this.stale(entry)) return undefined;
    }
    return this.soonest(tables);
  }

  private stale(entry: KnownBound): boolean {
    return (
      entry.stamps === null ||
      !this.versions.unchanged([entry.bound.table], entry.stamps) ||
      (entry.until !== null && Date.now() >= entry.until)
    );
  }

  private soonest(tables: readonly string[]): number | null {
    let soonest: number | null = null;
    for (const { bound, until } of this.bounds) {
      if (!tables.includes(bound.table) || until === null) continue;
      if (soonest === null || until < soonest) soonest = until;
    }
    return soonest;
  }
}
