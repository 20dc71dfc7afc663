import { Writable } from 'node:stream';
import { type App, buildApp, loggerOptions } from '../../../src/app.ts';
import type { Config } from '../../../src/config.ts';
import { testConfig } from '../app.ts';
import { createTestDatabase, type TestDatabase } from '../database.ts';

// The real app on a fresh database, like startTestApp, but keeping the server's error log
// lines: a 5xx found by a scenario is reported with its cause, which the client never sees.

export interface LoggedApp {
  app: App;
  config: Config;
  testDatabase: TestDatabase;
  /** Error log lines (JSON) by request id. */
  errors: Map<string, string>;
  close(): Promise<void>;
}

export async function startLoggedApp(overrides: Record<string, unknown> = {}): Promise<LoggedApp> {
  const testDatabase = await createTestDatabase();
  const config = testConfig(overrides);
  const errors = new Map<string, string>();
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        try {
          const entry = JSON.parse(line) as { reqId?: string; err?: { message?: string; stack?: string } };
          errors.set(
            entry.reqId ?? `line-${errors.size}`,
            entry.err?.stack?.split('\n').slice(0, 3).join(' | ') ?? line,
          );
        } catch {
          errors.set(`line-${errors.size}`, line);
        }
      }
      done();
    },
  });
  const app = await buildApp({
    config,
    database: testDatabase.database,
    logger: loggerOptions('error', sink),
  });
  await app.ready();
  return {
    app,
    config,
    testDatabase,
    errors,
    close: async () => {
      await app.close();
      await testDatabase.destroy();
    },
  };
}
