import { eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { ONE_ROW, runJson } from '../../db/statements.ts';
import { settingDefaults, settings } from './settings.tables.ts';

export interface StoredSetting {
  key: string;
  value: unknown;
}

// Values are read as JSON text and parsed here: the drivers and drizzle's jsonb mapping disagree
// on JSON strings (a stored "20" would come back as the number 20 on one engine).
const columns = { key: settings.key, value: sql<string>`${settings.value}::text` };

function parsed(rows: { key: string; value: string }[]): StoredSetting[] {
  return rows.map((r): StoredSetting => ({ key: r.key, value: JSON.parse(r.value) }));
}

/** True for an entry of `storedSettingsJson()`'s array (read as unknown JSON by the caller). */
export function isStoredSetting(entry: unknown): entry is StoredSetting {
  return typeof entry === 'object' && entry !== null && 'key' in entry && typeof entry.key === 'string';
}

/**
 * Every stored setting as ONE json array of {key, value}, for a statement that reads them with other
 * rows in one round trip (the totals read, storefront lists). Inside json the values keep their JSON
 * types on both engines; the driver parses the array.
 */
export function storedSettingsJson() {
  return sql<
    StoredSetting[]
  >`(select coalesce(json_agg(json_build_object('key', s.key, 'value', s.value)), '[]'::json) from ${settings} s)`;
}

/**
 * The stored values of a few keys as one JSON object (key → value) inside another statement: the
 * caller completes and checks them (`mergeSettings`), as the service does with every stored value.
 */
export function storedValuesJson(keys: readonly string[]): SQL {
  const names = keys.map((key) => sql.raw(`'${key}'`));
  return sql`(select coalesce(json_object_agg(s.key, s.value), '{}'::json) from ${settings} s where s.key in (${sql.join(names, sql`, `)}))`;
}

/**
 * One setting's effective value inside a statement: the stored value when it has the kind's shape,
 * else `fallback` (configuration over default, fixed for the process, so bound into the statement
 * when it is built). A value stored by hand that does not fit is ignored here as it is in the
 * service (settingProblem).
 */
export function settingValueSql(key: string, kind: 'positiveInteger' | 'boolean', fallback: unknown) {
  const stored =
    kind === 'boolean'
      ? sql`(select case when jsonb_typeof(s.value) = 'boolean' then s.value::text::boolean end from ${settings} s where s.key = ${sql.raw(`'${key}'`)})`
      : sql`(select case when s.value::text ~ '^[1-9][0-9]{0,8}$' then s.value::text::int end from ${settings} s where s.key = ${sql.raw(`'${key}'`)})`;
  return kind === 'boolean'
    ? sql`coalesce(${stored}, ${fallback}::boolean)`
    : sql`coalesce(${stored}, ${fallback}::int)`;
}

/**
 * Every stored (operator-changed) setting; the table holds a few dozen rows at most. One named
 * all-JSON statement: storefront-config, features and every settings read take the engine's fast
 * path (on PGlite one protocol exchange instead of a query planned anew).
 */
export async function readStoredSettings(db: Db): Promise<StoredSetting[]> {
  const [row] = await runJson<{ settings: StoredSetting[] }>(
    db,
    'stored_settings',
    (on) => on.select({ settings: storedSettingsJson() }).from(ONE_ROW) as never,
    ['settings'],
  );
  return row.settings;
}

export async function readStoredSetting(db: Db, key: string): Promise<StoredSetting | undefined> {
  return parsed(await db.select(columns).from(settings).where(eq(settings.key, key)).limit(1))[0];
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

/** Replaces the fallbacks the database's own code reads (setting_default). */
export async function writeSettingDefaults(db: Db, values: Record<string, unknown>): Promise<void> {
  const rows = Object.entries(values).map(([key, value]) => ({ key, value }));
  if (rows.length === 0) return;
  await db
    .insert(settingDefaults)
    .values(rows)
    .onConflictDoUpdate({ target: settingDefaults.key, set: { value: sql`excluded.value` } });
}
