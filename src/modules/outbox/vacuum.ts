import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Queue } from './queue.ts';

/**
 * PGlite runs no autovacuum: it is PostgreSQL in single-user mode, without the launcher that
 * cleans tables on a server. Left alone, every update leaves its old row version behind (a
 * product's stock roll-up, the table versions, pg-boss's own job rows), and reads visit ever more
 * dead rows: a bench catalog of 10,000 products, each updated once by its variants' roll-up, read
 * 32 buffers for a 15-product page instead of 3, and 120 pages of table versions for 3 rows. On
 * PGlite the service vacuums and analyzes the database itself, once after start and then hourly,
 * as a job of pg-boss's schedule (held in the database). On PostgreSQL autovacuum does this work.
 */
export const VACUUM_QUEUE = 'database-vacuum';
export const VACUUM_SCHEDULE = '41 * * * *';

/** Creates the queue and its schedule, and asks for a first run now. */
export async function scheduleVacuum(queue: Queue): Promise<void> {
  // Stately: one run waiting and one running at most, however many times it is asked for.
  await queue.createQueue(VACUUM_QUEUE, { name: VACUUM_QUEUE, policy: 'stately' });
  await queue.schedule(VACUUM_QUEUE, VACUUM_SCHEDULE);
  await queue.send(VACUUM_QUEUE, {});
}

/** VACUUM (ANALYZE) of the whole database: dead rows removed, planner statistics renewed. */
export async function vacuumDatabase(db: Db): Promise<void> {
  await db.execute(sql`vacuum (analyze)`);
}
