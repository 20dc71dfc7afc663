import type { LightMyRequestResponse } from 'fastify';
import { type App, buildApp } from '../../src/app.ts';
import { type Config, parseConfig } from '../../src/config.ts';
import type { Database } from '../../src/db/client.ts';
import { createTestDatabase, type TestDatabase } from './database.ts';

export const TEST_SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';

/** A valid configuration for tests: quiet, no demo data, rate limits off unless asked. */
export function testConfig(overrides: Record<string, unknown> = {}): Config {
  return parseConfig({
    logLevel: 'silent',
    seedDemo: false,
    dataDir: 'memory://',
    auth: { secret: TEST_SECRET },
    rateLimit: { enabled: false },
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

export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}
