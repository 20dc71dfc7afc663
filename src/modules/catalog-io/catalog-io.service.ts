import type { Caller } from '../../http/access.ts';
import { AppError } from '../../http/errors.ts';
import type { Db } from '../../db/client.ts';
import { recordAudit } from '../audit/audit.ts';
import { importJobById, insertImportJob } from './import-job.repo.ts';
import type { ReceivedCsv } from './upload.ts';

/** Queues an import of the file (the job queue picks it up); the upload is in the audit log. */
export interface ImportOptions {
  dryRun: boolean;
  /** The `Images` addresses are taken into the media library (docs/import-export.md, "Images"). */
  fetchImages: boolean;
}

export async function startImport(db: Db, caller: Caller, file: ReceivedCsv, options: ImportOptions): Promise<number> {
  const { dryRun, fetchImages } = options;
  if (caller.kind !== 'admin') throw new AppError('FORBIDDEN', 'imports are the back office’s');
  return db.transaction(async (tx) => {
    const id = await insertImportJob(tx, {
      source: file.text,
      fileName: file.fileName,
      dryRun,
      fetchImages,
      actor: caller.sub,
      actorRoles: [...caller.roles],
    });
    await recordAudit(tx, {
      actor: caller.sub,
      action: 'create',
      entity: 'import_job',
      entityId: id,
      changes: {
        fileName: { before: null, after: file.fileName },
        dryRun: { before: null, after: dryRun },
        fetchImages: { before: null, after: fetchImages },
      },
    });
    return id;
  });
}

export async function showImport(db: Db, id: number) {
  const job = await importJobById(db, id);
  if (!job) throw new AppError('NOT_FOUND', `import ${id} not found`);
  return {
    ...job,
    status: job.status as 'queued' | 'running' | 'done' | 'failed',
    createdAt: job.createdAt.toISOString(),
    finishedAt: job.finishedAt?.toISOString() ?? null,
  };
}
