import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { settings } from './settings.tables.ts';

export interface StoredSetting {
  key: string;
  value: unknown;
}

/** Every stored (operator-changed) setting; the table holds a few dozen rows at most. */
export async function readStoredSettings(db: Db): Promise<StoredSetting[]> {
  return db.select({ key: settings.key, value: settings.value }).from(settings);
}

export async function readStoredSetting(db: Db, key: string): Promise<StoredSetting | undefined> {
  const rows = await db
    .select({ key: settings.key, value: settings.value })
    .from(settings)
    .where(eq(settings.key, key))
    .limit(1);
  return rows[0];
}

export async function upsertSetting(db: Db, key: string, value: unknown): Promise<void> {
  await db
    .insert(settings)
    .values({ key, value })
    .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: sql`now()` } });
}

export async function deleteStoredSetting(db: Db, key: string): Promise<void> {
  await db.delete(settings).where(eq(settings.key, key));
}
