import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from './handle.ts';

// What both engines share: the handle's interface, the session settings, the migrations.

export interface Database {
  db: Db;
  engine: 'pglite' | 'postgres';
  /** PostgreSQL's connection pool as it is now; PGlite has one embedded connection and no pool. */
  poolStats?(): { total: number; idle: number; waiting: number };
  /** Runs a trivial query; throws when the database cannot answer. */
  ping(): Promise<void>;
  /**
   * Hands each notification of `channel` (pg_notify) to `handlers.message`, from a connection of
   * its own on PostgreSQL (re-opened after a loss: `lost` then `back`), in-process on PGlite.
   * Resolves once listening; the function it answers stops.
   */
  listen(channel: string, handlers: ListenHandlers): Promise<() => Promise<void>>;
  migrate(): Promise<void>;
  /** PGlite only: the whole cluster as a tarball, to start another instance from (`startFrom`). */
  dump?(): Promise<Blob>;
  close(): Promise<void>;
}

export interface ListenHandlers {
  message(payload: string): void;
  /** The listening connection is gone: notifications may be missed until `back`. */
  lost(): void;
  /** Listening again after a loss. */
  back(): void;
}

export type QueryLogger = { logQuery(text: string): void } | undefined;

/** The project's drizzle/ folder, from src/db/ when run as TypeScript or from dist/ when built. */
function findMigrationsFolder(): string {
  for (const relative of ['../../drizzle', '../drizzle']) {
    const folder = fileURLToPath(new URL(relative, import.meta.url));
    if (existsSync(join(folder, 'meta', '_journal.json'))) return folder;
  }
  throw new Error('drizzle/ migrations folder not found next to the server code');
}

export const migrationsFolder = findMigrationsFolder();

/**
 * Every statement the service runs is prepared once and executed many times with other values;
 * PostgreSQL would otherwise plan most of them again on every execution (a custom plan), which
 * was half of its CPU per catalog list. Generic plans are planned once per connection; the
 * product plans test checks they stay index scans (test/catalog/product-indexes.test.ts).
 */
export const PLAN_CACHE_MODE = 'force_generic_plan';

/**
 * Catalog search tolerates one typo in a word of five letters or more through pg_trgm's word
 * similarity (`%>`, index-driven). Its default threshold 0.6 misses most single typos: a changed
 * middle letter of a five-letter word scores 0.33 (grind/grand), a swap 0.44 (epsresso); 0.3
 * finds them (docs/discovery.md).
 */
export const WORD_SIMILARITY_THRESHOLD = '0.3';
/**
 * The planner's price of a random page read: 1.1 (solid-state storage) rather than 4 (spinning
 * disks). At 4 it reads a 10,000-product table whole rather than through the trigram index even
 * for a word 1 % of the products hold (test/catalog/product-indexes.test.ts).
 */
export const RANDOM_PAGE_COST = '1.1';
export const SEARCH_SETTINGS_SQL = `set pg_trgm.word_similarity_threshold = ${WORD_SIMILARITY_THRESHOLD}; set random_page_cost = ${RANDOM_PAGE_COST}`;
