import { type SQL, sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import { ConfigError } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../http/errors.ts';
import { changedFields, recordAudit } from '../audit/audit.ts';
import { toCents } from '../../lib/money.ts';
import {
  defaultSettings,
  type EffectiveSettings,
  isSettingKey,
  isSettingValue,
  type MoneySettingKey,
  SETTING_KEYS,
  SETTINGS,
  type SettingKey,
  type SettingValue,
  settingProblem,
} from './registry.ts';
import type { SettingsSource } from '../../resources/index.ts';
import {
  deleteStoredSetting,
  readStoredSetting,
  readStoredSettings,
  settingValueSql,
  storedValuesJson,
  upsertSetting,
  writeSettingDefaults,
} from './settings.repo.ts';

// Settings are read LIVE: every request that needs them runs one small query on the `setting`
// table (a few rows, primary-key sized), so a change made through the API or directly in the
// database shows on the next request of every instance. No in-process cache can go stale.

export type SettingSource = 'database' | 'config' | 'default';

export interface SettingEntry {
  key: SettingKey;
  value: unknown;
  defaultValue: unknown;
  source: SettingSource;
  description: string;
}

const configLayers = new WeakMap<Config, EffectiveSettings>();
const DEFAULTS = defaultSettings();

/** One key's default (the registry's), typed for that key. */
const defaultOf = <K extends SettingKey>(key: K): SettingValue<K> => DEFAULTS[key];

/** Sets one key's value; the key and its value's type go together. */
function setValue<K extends SettingKey>(
  settings: EffectiveSettings,
  key: K,
  value: EffectiveSettings[K],
): void {
  settings[key] = value;
}

/** Defaults overlaid with the configuration file's values; computed once per configuration. */
function configLayer(config: Config): EffectiveSettings {
  let layer = configLayers.get(config);
  if (!layer) {
    layer = defaultSettings();
    for (const [key, value] of Object.entries(config.settings)) {
      if (isSettingKey(key) && isSettingValue(key, value)) setValue(layer, key, value);
    }
    // Shared by every request: frozen so that no reader can change it for the others.
    for (const value of Object.values(layer)) if (typeof value === 'object' && value) Object.freeze(value);
    Object.freeze(layer);
    configLayers.set(config, layer);
  }
  return layer;
}

/** Stops the start when the configuration file names an unknown key or a wrong value. */
export function assertConfigSettings(config: Config): void {
  for (const [key, value] of Object.entries(config.settings)) {
    if (!isSettingKey(key)) throw new ConfigError(`configuration key "settings.${key}": unknown setting`);
    const problem = settingProblem(key, value);
    if (problem) throw new ConfigError(`configuration key "settings.${key}": ${problem}`);
  }
}

/** Settings that database code reads (the stock events' trigger, migration 0023). */
const DATABASE_SETTINGS = ['stock_low_threshold'] as const;

/**
 * Writes the configuration's fallback of the settings database code reads, so a trigger sees a
 * value given only in the configuration file as the service does (a stored value still wins).
 */
export async function publishSettingDefaults(db: Db, config: Config): Promise<void> {
  const layer = configLayer(config);
  await writeSettingDefaults(db, Object.fromEntries(DATABASE_SETTINGS.map((key) => [key, layer[key]])));
}

/**
 * Every setting's effective value: database over configuration over default. A stored value
 * that does not fit its key (written directly in the database) is ignored: the default applies.
 */
export async function readSettings(db: Db, config: Config): Promise<EffectiveSettings> {
  const stored = await readStoredSettings(db);
  return mergeSettings(config, stored);
}

export function mergeSettings(config: Config, stored: { key: string; value: unknown }[]): EffectiveSettings {
  const base = configLayer(config);
  if (stored.length === 0) return base;
  const result = { ...base };
  for (const { key, value } of stored) {
    if (!isSettingKey(key)) continue;
    setValue(result, key, isSettingValue(key, value) ? value : defaultOf(key));
  }
  return result;
}

/**
 * The shop's one currency as an SQL value, for answers rendered by the database (products): the
 * stored setting when it is a valid code, else the configured one (inlined: it matched ^[A-Z]{3}$).
 */
export function currencySql(config: Config): SQL {
  const configured = configLayer(config).currency;
  const fallback = /^[A-Z]{3}$/.test(configured) ? configured : 'EUR';
  return sql`coalesce((select s.value #>> '{}' from setting s where s.key = 'currency' and s.value #>> '{}' ~ '^[A-Z]{3}$'), ${sql.raw(`'${fallback}'`)})`;
}

/** The settings as the resource framework reads them (passed in by the app: src/app.ts). */
export function settingsSource(config: Config): SettingsSource {
  return {
    read: (db) => readSettings(db, config),
    valueSql: (key, kind) => {
      if (!isSettingKey(key)) throw new Error(`unknown setting ${key}`);
      return settingValueSql(key, kind, configLayer(config)[key]);
    },
    storedSql: (keys) => storedValuesJson(keys.filter(isSettingKey)),
    fromStored: (stored) =>
      mergeSettings(
        config,
        Object.entries(stored).map(([key, value]) => ({ key, value })),
      ),
  };
}

/** One key's effective value (one primary-key lookup). */
export async function getSetting<K extends SettingKey>(
  db: Db,
  config: Config,
  key: K,
): Promise<SettingValue<K>> {
  const stored = await readStoredSetting(db, key);
  if (stored === undefined) return configLayer(config)[key];
  return isSettingValue(key, stored.value) ? stored.value : defaultOf(key);
}

/** A money setting in cents (the registry keeps them as decimals, as an operator writes them). */
export function settingCents(settings: EffectiveSettings, key: MoneySettingKey): number {
  return toCents(settings[key]);
}

function entry(key: SettingKey, config: Config, stored: Map<string, unknown>): SettingEntry {
  const spec = SETTINGS[key];
  const inDb = stored.has(key) && settingProblem(key, stored.get(key)) === null;
  const inConfig = Object.hasOwn(config.settings, key) && settingProblem(key, config.settings[key]) === null;
  return {
    key,
    value: inDb ? stored.get(key) : configLayer(config)[key],
    defaultValue: spec.default,
    source: inDb ? 'database' : inConfig ? 'config' : 'default',
    description: spec.schema.description ?? '',
  };
}

export async function listSettings(db: Db, config: Config): Promise<SettingEntry[]> {
  const stored = new Map((await readStoredSettings(db)).map((s) => [s.key, s.value]));
  return SETTING_KEYS.map((key) => entry(key, config, stored));
}

function knownKey(key: string): SettingKey {
  if (!isSettingKey(key)) throw new AppError('NOT_FOUND', `no setting named ${key}`);
  return key;
}

export async function showSetting(db: Db, config: Config, key: string): Promise<SettingEntry> {
  const known = knownKey(key);
  const stored = await readStoredSetting(db, known);
  return entry(known, config, new Map(stored ? [[known, stored.value]] : []));
}

/** Keeps the change of a key's effective value in the audit log, in the write's transaction. */
async function auditSetting(tx: Db, actor: string, key: SettingKey, before: unknown, after: SettingEntry) {
  await recordAudit(tx, {
    actor,
    action: 'update',
    entity: 'setting',
    entityId: key,
    changes: changedFields({ value: before }, { value: after.value }),
  });
}

/** Stores an operator's value after checking it against the key's type; `actor` is the admin's subject. */
export async function putSetting(
  db: Db,
  config: Config,
  key: string,
  value: unknown,
  actor: string,
): Promise<SettingEntry> {
  const known = knownKey(key);
  const problem = settingProblem(known, value);
  if (problem) {
    throw new AppError('VALIDATION_FAILED', `value of ${known} ${problem}`, [
      { field: 'value', message: problem },
    ]);
  }
  return db.transaction(async (tx) => {
    const before = (await showSetting(tx, config, known)).value;
    await upsertSetting(tx, known, value);
    const after = entry(known, config, new Map([[known, value]]));
    await auditSetting(tx, actor, known, before, after);
    return after;
  });
}

/** Forgets the operator's value: the configuration's or the registry's default applies again. */
export async function resetSetting(
  db: Db,
  config: Config,
  key: string,
  actor: string,
): Promise<SettingEntry> {
  const known = knownKey(key);
  return db.transaction(async (tx) => {
    const before = (await showSetting(tx, config, known)).value;
    await deleteStoredSetting(tx, known);
    const after = entry(known, config, new Map());
    await auditSetting(tx, actor, known, before, after);
    return after;
  });
}
