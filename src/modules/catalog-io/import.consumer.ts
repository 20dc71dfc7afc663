import type { OutboxConsumerFactory } from '../outbox/consumer.ts';
import { keyedJob } from '../outbox/queue.ts';
import { waitingImportJobs } from './import-job.repo.ts';
import { runImport } from './import.service.ts';

// Imports run on the job queue (pg-boss): the upload answers at once with the job's id, a worker
// of any instance reads the file from the job's row. A job active past its bound belongs to a
// worker that died and runs again, which is safe: an import run twice changes nothing the first
// run wrote.

export const IMPORT_QUEUE = 'catalog-import';

interface ImportJob {
  importId: number;
}

export const importConsumer: OutboxConsumerFactory<ImportJob> = (app) => ({
  queue: IMPORT_QUEUE,
  jobBoundMs: 30 * 60_000,
  batchSize: 1,
  async queueWaiting(db, queue) {
    const ids = await waitingImportJobs(db);
    if (ids.length === 0) return 0;
    await queue.insert(ids.map((importId) => keyedJob<ImportJob>(IMPORT_QUEUE, `import:${importId}`, { importId })));
    return ids.length;
  },
  async run(jobs) {
    const { db, config, settingsSource, recordWrite } = app;
    for (const job of jobs) {
      const deps = { rctx: { db, config, settingsSource, recordWrite }, log: app.log, mediaStorage: app.mediaStorage };
      await runImport(deps, job.data.importId);
    }
  },
});
