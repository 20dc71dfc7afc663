// The answers kept: bytes as they are sent, with their headers and the table stamps they were
// read under, in least-recently-used order, bounded by the bytes they hold. A read moves its entry
// to the recent end only when it is in the older half of the order: a hot answer read thousands of
// times a second is not taken out of the map and put back each time, and an entry in the newer
// half is still behind every entry of the older half in the eviction order.

export interface CachedAnswer {
  body: Buffer;
  headers: Record<string, string>;
  /** The tables the answer read, and their stamps when its read began (table-versions.ts). */
  tables: readonly string[];
  stamps: readonly number[];
  /** When it stops being right whatever is written (a sale starts or ends; time-bounds.ts); null: never. */
  until: number | null;
  /** The route's template (`/rest/product/product/:id`), the metrics' label of its hits. */
  route: string;
  /** A guest's hit on it may be answered before Fastify (early-hits.ts): nothing else would differ. */
  early: boolean;
}

/** What an entry costs beyond its body: the key, the headers, the object (a fair round figure). */
const ENTRY_OVERHEAD = 512;

/** How many keys asked once are remembered; past it the memory starts again (a few MB at most). */
const ASKED_ONCE_AT_MOST = 20_000;

interface Slot {
  answer: CachedAnswer;
  /** `moves` when it was last put at the recent end. */
  movedAt: number;
}

export class AnswerCache {
  private readonly entries = new Map<string, Slot>();
  /** Keys missed once and not kept since. */
  private readonly askedOnce = new Set<string>();
  private bytes = 0;
  private moves = 0;
  hits = 0;
  /** The hits of `hits` answered before Fastify (early-hits.ts). */
  earlyHits = 0;
  misses = 0;

  constructor(private readonly maxBytes: number) {}

  get size(): number {
    return this.entries.size;
  }

  get heldBytes(): number {
    return this.bytes;
  }

  /** The entry under `key`, now the most recently used. */
  get(key: string): CachedAnswer | undefined {
    const slot = this.entries.get(key);
    if (slot === undefined) return undefined;
    if (this.moves - slot.movedAt >= this.entries.size / 2) {
      this.entries.delete(key);
      this.entries.set(key, slot);
      slot.movedAt = ++this.moves;
    }
    return slot.answer;
  }

  /**
   * Whether the answer to a miss on `key` is worth keeping: the key was asked before (missed once,
   * or kept and since dropped by a write or its time). A key asked once is noted, not kept: a crawl
   * of one-off URLs copies no answer and pushes no kept one out.
   */
  worthKeeping(key: string): boolean {
    if (this.entries.has(key) || this.askedOnce.has(key)) return true;
    if (this.askedOnce.size >= ASKED_ONCE_AT_MOST) this.askedOnce.clear();
    this.askedOnce.add(key);
    return false;
  }

  set(key: string, entry: CachedAnswer): void {
    this.delete(key);
    this.askedOnce.delete(key);
    const cost = costOf(key, entry);
    if (cost > this.maxBytes) return;
    this.entries.set(key, { answer: entry, movedAt: ++this.moves });
    this.bytes += cost;
    for (const [oldest, old] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= costOf(oldest, old.answer);
    }
  }

  delete(key: string): void {
    const slot = this.entries.get(key);
    if (slot === undefined) return;
    this.entries.delete(key);
    this.bytes -= costOf(key, slot.answer);
  }

  clear(): void {
    this.entries.clear();
    this.askedOnce.clear();
    this.bytes = 0;
  }
}

function costOf(key: string, entry: CachedAnswer): number {
  return entry.body.length + key.length + ENTRY_OVERHEAD;
}
