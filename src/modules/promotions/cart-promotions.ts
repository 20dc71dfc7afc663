import type { CartPromotionsRead, RunningCartPromotion } from './promotion.repo.ts';

// The cart promotions a quote applies, kept between requests (docs/promotions.md, "Performance"):
// the quote's statement sends every active cart promotion only when the promotions' version is not
// the one kept here, and otherwise only the ids of the running ones. Every quote used to receive
// and parse the JSON of every running promotion (15 of them: about 6 KB a request). Kept per
// database handle: tests and tools may run several databases in one process.

interface Kept {
  version: string;
  byId: Map<number, RunningCartPromotion>;
}

const kept = new WeakMap<object, Kept>();

/** The version of the promotions kept for `db`, to hand to the statement (null: none kept). */
export function keptPromotionsVersion(db: object): string | null {
  return kept.get(db)?.version ?? null;
}

/**
 * The running cart promotions of a read, in id order: from the promotions it carries (kept for
 * `db` when it names their version), else from the copy kept for that version.
 */
export function runningCartPromotions(db: object | null, read: CartPromotionsRead): RunningCartPromotion[] {
  let byId: Map<number, RunningCartPromotion>;
  if (read.promotions !== null) {
    byId = new Map(read.promotions.map((p) => [p.id, p]));
    if (db !== null && read.version !== null) kept.set(db, { version: read.version, byId });
  } else {
    const copy = db === null ? undefined : kept.get(db);
    if (copy === undefined || copy.version !== read.version) {
      throw new Error(`cart promotions of version ${read.version} were neither sent nor kept`);
    }
    byId = copy.byId;
  }
  return read.running.flatMap((id) => byId.get(id) ?? []);
}
