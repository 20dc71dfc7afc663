import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type Database, openDatabase } from '../../src/db/client.ts';

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

/** A fresh, migrated database of its own for one test file; nothing is shared between files. */
export async function createTestDatabase(
  options: { dataDir?: string; poolSize?: number; onQuery?: (text: string) => void } = {},
): Promise<TestDatabase> {
  if (testEngine === 'pglite') {
    const database = await openDatabase({
      dataDir: options.dataDir ?? 'memory://',
      onQuery: options.onQuery,
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
