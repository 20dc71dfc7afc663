import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/db/client.ts';
import { VACUUM_QUEUE, VACUUM_SCHEDULE } from '../../src/modules/outbox/vacuum.ts';
import { startTestApp } from '../helpers/app.ts';
import { testEngine } from '../helpers/database.ts';

// PGlite runs no autovacuum: the service vacuums it (src/modules/outbox/vacuum.ts). On PostgreSQL the
// server's autovacuum does, and the service schedules nothing.

const jobs = { enabled: true, relayIntervalMs: 50, pollIntervalSeconds: 0.5 };

describe('database vacuum', () => {
  test('when the service starts on PGlite, then its tables are vacuumed and analyzed, and again every hour by a schedule', {
    skip: testEngine !== 'pglite' && 'PGlite only: PostgreSQL has autovacuum',
  }, async () => {
    const t = await startTestApp({ config: { jobs } });
    try {
      let row: { last_vacuum: Date | null; last_analyze: Date | null } | undefined;
      for (const deadline = Date.now() + 20_000; Date.now() < deadline; ) {
        [row] = await queryRows(
          t.database.db,
          sql`select last_vacuum, last_analyze from pg_stat_user_tables where relname = 'product'`,
        );
        if (row?.last_vacuum && row.last_analyze) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.ok(row?.last_vacuum, 'product was never vacuumed');
      assert.ok(row.last_analyze, 'product was never analyzed');
      const schedules = await queryRows<{ name: string; cron: string }>(
        t.database.db,
        sql`select name, cron from pgboss.schedule`,
      );
      assert.deepEqual(schedules, [{ name: VACUUM_QUEUE, cron: VACUUM_SCHEDULE }]);
    } finally {
      await t.close();
    }
  });

  test('when the service starts on PostgreSQL, then it schedules no vacuum of its own', {
    skip: testEngine !== 'postgres' && 'PostgreSQL only',
  }, async () => {
    const t = await startTestApp({ config: { jobs } });
    try {
      const schedules = await queryRows(t.database.db, sql`select name from pgboss.schedule`);
      assert.deepEqual(schedules, []);
    } finally {
      await t.close();
    }
  });
});
