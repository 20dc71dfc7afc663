import { and, desc, eq, ilike, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { mediaAssets } from './media.tables.ts';

export type AssetRow = typeof mediaAssets.$inferSelect;
export type NewAsset = typeof mediaAssets.$inferInsert;

export async function insertAsset(db: Db, asset: NewAsset): Promise<AssetRow> {
  const [row] = await db.insert(mediaAssets).values(asset).returning();
  return row;
}

export async function findAsset(db: Db, id: number): Promise<AssetRow | undefined> {
  const [row] = await db.select().from(mediaAssets).where(eq(mediaAssets.id, id));
  return row;
}

/** The asset, locked against every other write until the transaction ends (delete, alt). */
export async function lockAsset(db: Db, id: number): Promise<AssetRow | undefined> {
  const [row] = await db.select().from(mediaAssets).where(eq(mediaAssets.id, id)).for('update');
  return row;
}

/**
 * These assets, held until the transaction ends so that none is deleted while an owner's row
 * that shows it is written (the delete waits, then sees the owner).
 */
export async function holdAssets(db: Db, ids: number[]): Promise<AssetRow[]> {
  if (ids.length === 0) return [];
  return db.select().from(mediaAssets).where(inArray(mediaAssets.id, ids)).for('key share');
}

/** The assets fetched from these addresses (the first of each), by address. */
export async function assetIdsBySourceUrl(db: Db, urls: readonly string[]): Promise<Map<string, number>> {
  if (urls.length === 0) return new Map();
  const rows = await db
    .select({ id: mediaAssets.id, sourceUrl: mediaAssets.sourceUrl })
    .from(mediaAssets)
    .where(inArray(mediaAssets.sourceUrl, [...urls]))
    .orderBy(mediaAssets.id);
  const found = new Map<string, number>();
  for (const row of rows) if (row.sourceUrl !== null && !found.has(row.sourceUrl)) found.set(row.sourceUrl, row.id);
  return found;
}

export async function setAssetAlt(db: Db, id: number, alt: string): Promise<AssetRow> {
  const [row] = await db
    .update(mediaAssets)
    .set({ alt, updatedAt: sql`now()` })
    .where(eq(mediaAssets.id, id))
    .returning();
  return row;
}

export async function deleteAsset(db: Db, id: number): Promise<void> {
  await db.delete(mediaAssets).where(eq(mediaAssets.id, id));
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** A page of the library, newest first; `q` matches the file name or the alt text. */
export async function pageAssets(
  db: Db,
  query: { q?: string; format?: string; offset: number; limit: number },
): Promise<{ rows: AssetRow[]; total: number }> {
  const conditions: SQL[] = [];
  if (query.q) {
    const pattern = `%${escapeLike(query.q)}%`;
    const matches = or(ilike(mediaAssets.fileName, pattern), ilike(mediaAssets.alt, pattern));
    if (matches) conditions.push(matches);
  }
  if (query.format) conditions.push(eq(mediaAssets.format, query.format));
  const where = conditions.length ? and(...conditions) : undefined;
  const rows = await db
    .select()
    .from(mediaAssets)
    .where(where)
    .orderBy(desc(mediaAssets.createdAt), desc(mediaAssets.id))
    .limit(query.limit)
    .offset(query.offset);
  const [{ total }] = await db.select({ total: sql<number>`count(*)::int` }).from(mediaAssets).where(where);
  return { rows, total };
}
