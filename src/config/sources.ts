import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

// Where the configuration comes from: the JSON file (SHOP_CONFIG, else config/shop.json) and the
// environment variables below, the environment winning. The environment itself is handed in by
// loadConfig (src/config.ts), the one place that reads it.

/** A configuration key's value is refused; the message names the key. */
export class ConfigError extends Error {}

export type Env = Record<string, string | undefined>;

/** Environment variables and the config path each one overrides. */
const ENV_KEYS: Record<string, string[]> = {
  HOST: ['host'],
  PORT: ['port'],
  DATA_DIR: ['dataDir'],
  DATABASE_URL: ['databaseUrl'],
  DATABASE_POOL_SIZE: ['databasePoolSize'],
  REDIS_URL: ['redisUrl'],
  LOG_LEVEL: ['logLevel'],
  SEED_DEMO: ['seedDemo'],
  TRUST_PROXY: ['trustProxy'],
  JWT_SECRET: ['auth', 'secret'],
  CORS_ORIGINS: ['cors', 'origins'],
  RATE_LIMIT_ENABLED: ['rateLimit', 'enabled'],
  SMTP_URL: ['mail', 'smtpUrl'],
  MAIL_FROM: ['mail', 'from'],
  MEDIA_DIR: ['media', 'dir'],
  MEDIA_MAX_BYTES: ['media', 'maxBytes'],
  IMPORT_MAX_BYTES: ['import', 'maxBytes'],
  IMPORT_IMAGE_MAX_BYTES: ['import', 'images', 'maxBytes'],
  IMPORT_IMAGE_TIMEOUT_MS: ['import', 'images', 'timeoutMs'],
  MEDIA_IMAGE_WORKERS: ['media', 'imageWorkers'],
  JOBS_ENABLED: ['jobs', 'enabled'],
  CACHE_ENABLED: ['cache', 'enabled'],
  CACHE_MAX_MEGABYTES: ['cache', 'maxMegabytes'],
  METRICS_TOKEN: ['metrics', 'token'],
  METRICS_PORT: ['metrics', 'port'],
  OTEL_EXPORTER_OTLP_ENDPOINT: ['tracing', 'endpoint'],
  CARD_PROVIDER: ['payments', 'cardProvider'],
  STRIPE_SECRET_KEY: ['payments', 'stripe', 'secretKey'],
  STRIPE_WEBHOOK_SECRET: ['payments', 'stripe', 'webhookSecret'],
};

function setPath(target: Record<string, unknown>, path: string[], value: unknown): void {
  let node = target;
  for (const key of path.slice(0, -1)) {
    if (typeof node[key] !== 'object' || node[key] === null) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[path[path.length - 1]] = value;
}

function envValue(name: string, raw: string): unknown {
  if (name === 'CORS_ORIGINS')
    return raw
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  if (
    name === 'SEED_DEMO' ||
    name === 'TRUST_PROXY' ||
    name === 'RATE_LIMIT_ENABLED' ||
    name === 'JOBS_ENABLED' ||
    name === 'CACHE_ENABLED'
  ) {
    if (['1', 'true', 'yes'].includes(raw.toLowerCase())) return true;
    if (['0', 'false', 'no'].includes(raw.toLowerCase())) return false;
    return raw;
  }
  if (
    name === 'PORT' ||
    name === 'DATABASE_POOL_SIZE' ||
    name === 'METRICS_PORT' ||
    name === 'MEDIA_MAX_BYTES' ||
    name === 'IMPORT_MAX_BYTES' ||
    name === 'IMPORT_IMAGE_MAX_BYTES' ||
    name === 'IMPORT_IMAGE_TIMEOUT_MS' ||
    name === 'MEDIA_IMAGE_WORKERS' ||
    name === 'CACHE_MAX_MEGABYTES'
  )
    return /^\d+$/.test(raw) ? Number(raw) : raw;
  return raw;
}

function readConfigFile(env: Env, cwd: string): Record<string, unknown> {
  const explicit = env.SHOP_CONFIG;
  const path = resolve(cwd, explicit ?? 'config/shop.json');
  if (!existsSync(path)) {
    if (explicit) throw new ConfigError(`SHOP_CONFIG: file not found: ${path}`);
    return {};
  }
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new ConfigError(`${path}: the configuration must be a JSON object`);
    }
    return parsed as Record<string, unknown>;
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    throw new ConfigError(`${path}: not valid JSON (${(err as Error).message})`);
  }
}

/** The file's object with the environment's values set over it, not yet validated. */
export function rawConfigFrom(env: Env, cwd: string): Record<string, unknown> {
  const raw: Record<string, unknown> = structuredClone(readConfigFile(env, cwd));
  for (const [name, path] of Object.entries(ENV_KEYS)) {
    const value = env[name];
    if (value !== undefined && value !== '') setPath(raw, path, envValue(name, value));
  }
  return raw;
}
