import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { type Database, openDatabase } from '../../src/db/client.ts';
import { migrationsFolder } from '../../src/db/engine.ts';

/** The engine the suite runs on: PostgreSQL when TEST_DATABASE_URL is set, PGlite otherwise. */
export const testEngine: 'postgres' | 'pglite' = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';

export interface TestDatabase {
  database: Database;
  /** The connection string of the fresh PostgreSQL database, when on PostgreSQL. */
  url?: string;
  /** Closes and, on PostgreSQL, drops the database. */
  destroy(): Promise<void>;
}

function adminUrl(): string {
  return process.env.TEST_DATABASE_URL as string;
}

function urlFor(name: string): string {
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

async function withAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * A migrated PGlite cluster, made once per set of migrations and kept as a tarball beside PGlite's
 * other kept copy (src/db/pglite.ts): restoring it takes about a third of a second, a new cluster
 * and its migrations about one and a half. A file's databases still start empty and its own.
 */
let keptCluster: Promise<Blob> | undefined;
function migratedCluster(): Promise<Blob> {
  keptCluster ??= (async () => {
    const hash = createHash('sha256');
    hash.update(readFileSync(new URL('../../node_modules/@electric-sql/pglite/package.json', import.meta.url)));
    for (const name of readdirSync(migrationsFolder, { recursive: true }).map(String).sort()) {
      if (name.endsWith('.sql') || name.endsWith('.json')) hash.update(name).update(readFileSync(join(migrationsFolder, name)));
    }
    const folder = new URL('../../node_modules/.cache/shop-api/', import.meta.url);
    const file = new URL(`test-cluster-${hash.digest('hex').slice(0, 16)}.tar`, folder);
    try {
      return new Blob([readFileSync(file)]);
    } catch {
      const database = await openDatabase({ dataDir: 'memory://' });
      await database.migrate();
      const dump = (await database.dump?.()) as Blob;
      await database.close();
      try {
        mkdirSync(folder, { recursive: true });
        const partial = new URL(`${file.pathname}.${process.pid}.part`, file);
        writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
        renameSync(partial, file);
      } catch {
        // Not kept (a read-only node_modules): the next file makes its own again.
      }
      return dump;
    }
  })();
  return keptCluster;
}

/** A fresh, migrated database of its own for one test file; nothing is shared between files. */
export async function createTestDatabase(
  options: { dataDir?: string; poolSize?: number; onQuery?: (text: string) => void } = {},
): Promise<TestDatabase> {
  if (testEngine === 'pglite') {
    const inMemory = options.dataDir === undefined;
    const database = await openDatabase({
      dataDir: options.dataDir ?? 'memory://',
      onQuery: options.onQuery,
      startFrom: inMemory ? await migratedCluster() : undefined,
    });
    await database.migrate();
    return { database, destroy: () => database.close() };
  }
  const name = `shop_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await withAdmin((c) => c.query(`create database ${name}`));
  const url = urlFor(name);
  const database = await openDatabase({
    databaseUrl: url,
    dataDir: '',
    poolSize: options.poolSize ?? 20,
    onQuery: options.onQuery,
  });
  await database.migrate();
  return {
    database,
    url,
    destroy: async () => {
      await database.close();
      await withAdmin((c) => c.query(`drop database if exists ${name} with (force)`));
    },
  };
}
