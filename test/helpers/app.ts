import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { type App, buildApp } from '../../src/app.ts';
import { type Config, parseConfig } from '../../src/config.ts';
import type { Database } from '../../src/db/client.ts';
import { createTestDatabase, type TestDatabase } from './database.ts';

/** Made for this test run, so no key written in the repository is ever accepted. */
export const TEST_SECRET = randomBytes(32).toString('base64url');

/** A valid configuration for tests: quiet, no demo data, rate limits and job workers off unless asked. */
export function testConfig(overrides: Record<string, unknown> = {}): Config {
  return parseConfig({
    logLevel: 'silent',
    seedDemo: false,
    dataDir: 'memory://',
    auth: { secret: TEST_SECRET },
    rateLimit: { enabled: false },
    jobs: { enabled: false },
    ...overrides,
  });
}

export interface TestApp {
  app: App;
  database: Database;
  testDatabase: TestDatabase;
  config: Config;
  close(): Promise<void>;
}

/** Builds the real app over a fresh database of its own. */
export async function startTestApp(
  options: { config?: Record<string, unknown>; testDatabase?: TestDatabase } = {},
): Promise<TestApp> {
  const testDatabase = options.testDatabase ?? (await createTestDatabase());
  const config = testConfig(options.config);
  const app = await buildApp({ config, database: testDatabase.database, logger: false });
  await app.ready();
  return {
    app,
    database: testDatabase.database,
    testDatabase,
    config,
    close: async () => {
      await app.close();
      if (!options.testDatabase) await testDatabase.destroy();
    },
  };
}

/** The parsed JSON body of an inject response. */
export function body<T = Record<string, unknown>>(response: LightMyRequestResponse): T {
  return response.json() as T;
}

/** An access token of a new session of this account, as login would give (no password needed). */
export async function sessionToken(
  app: App,
  claims: { sub: string; ctx: 'admin' | 'customer'; roles?: number[] },
): Promise<string> {
  return (await app.sessions.open(claims)).access_token;
}

export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}
