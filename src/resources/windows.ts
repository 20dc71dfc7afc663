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
