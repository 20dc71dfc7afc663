import { type SQL, sql } from 'drizzle-orm';

// A promotion runs from `starts_at` to `ends_at` without a write at either moment: what the
// quote keeps between requests (cart promotions, catalog sales) carries each one's window, and the
// quote judges it at its own time.

/** A kept item with its window in milliseconds since the epoch (open ends: ±Infinity). */
export interface Windowed<T> {
  item: T;
  startsAt: number;
  endsAt: number;
}

/** JSON of a row's window for a kept copy: `'startsAt', …, 'endsAt', …` in ms (null: open). */
export function windowJson(startsAt: SQL, endsAt: SQL): SQL {
  return sql`'startsAt', extract(epoch from ${startsAt}) * 1000, 'endsAt', extract(epoch from ${endsAt}) * 1000`;
}

/** An item with the window `windowJson` read. */
export function windowed<T>(item: T, startsAt: number | null, endsAt: number | null): Windowed<T> {
  return { item, startsAt: startsAt ?? -Infinity, endsAt: endsAt ?? Infinity };
}

/** The items that run at `now`, in their order. */
export function runningAt<T>(kept: readonly Windowed<T>[], now: Date): T[] {
  const t = now.getTime();
  return kept.filter((k) => k.startsAt <= t && t < k.endsAt).map((k) => k.item);
}

/** The span around `now` in which no item starts or ends: what runs at `now` runs all through it. */
export function steadyAround<T>(kept: readonly Windowed<T>[], now: Date): { since: number; until: number } {
  const t = now.getTime();
  let since = -Infinity;
  let until = Infinity;
  for (const k of kept) {
    for (const edge of [k.startsAt, k.endsAt]) {
      if (edge <= t) since = Math.max(since, edge);
      else until = Math.min(until, edge);
    }
  }
  return { since, until };
}

/**
 * `derive` of the items running at each time, remembered per kept copy while what runs stays the
 * same (a kept copy is replaced, never changed).
 */
export function derivedWhileSteady<T, R>(derive: (kept: readonly Windowed<T>[], now: Date) => R) {
  const held = new WeakMap<readonly Windowed<T>[], { since: number; until: number; value: R }>();
  return (kept: readonly Windowed<T>[], now: Date): R => {
    const t = now.getTime();
    const h = held.get(kept);
    if (h !== undefined && h.since <= t && t < h.until) return h.value;
    const value = derive(kept, now);
    held.set(kept, { ...steadyAround(kept, now), value });
    return value;
  };
}
