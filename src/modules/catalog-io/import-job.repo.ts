import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { type ImportProblem, importJobs } from './catalog-io.tables.ts';

export type ImportStatus = 'queued' | 'running' | 'done' | 'failed';

export interface NewImportJob {
  source: string;
  fileName: string;
  dryRun: boolean;
  actor: string;
  actorRoles: number[];
}

export async function insertImportJob(db: Db, job: NewImportJob): Promise<number> {
  const [row] = await db.insert(importJobs).values(job).returning({ id: importJobs.id });
  return row.id;
}

/** What the back office polls. */
export async function importJobById(db: Db, id: number) {
  const [row] = await db
    .select({
      id: importJobs.id,
      status: importJobs.status,
      dryRun: importJobs.dryRun,
      fileName: importJobs.fileName,
      total: importJobs.total,
      processed: importJobs.processed,
      created: importJobs.created,
      updated: importJobs.updated,
      unchanged: importJobs.unchanged,
      errors: importJobs.errors,
      createdAt: importJobs.createdAt,
      finishedAt: importJobs.finishedAt,
    })
    .from(importJobs)
    .where(eq(importJobs.id, id));
  return row;
}

/**
 * Takes a queued job (or one a dead worker left running: an import run again changes nothing it
 * already wrote) and answers its file and sender; undefined when it is over.
 */
export async function claimImportJob(db: Db, id: number) {
  const [row] = await db
    .update(importJobs)
    .set({ status: 'running', updatedAt: sql`now()` })
    .where(and(eq(importJobs.id, id), inArray(importJobs.status, ['queued', 'running'])))
    .returning({
      source: importJobs.source,
      dryRun: importJobs.dryRun,
      actor: importJobs.actor,
      actorRoles: importJobs.actorRoles,
    });
  return row;
}

export interface ImportProgress {
  total: number;
  processed: number;
  created: number;
  updated: number;
  unchanged: number;
  errors: ImportProblem[];
}

export async function saveImportProgress(db: Db, id: number, progress: ImportProgress): Promise<void> {
  await db
    .update(importJobs)
    .set({ ...progress, updatedAt: sql`now()` })
    .where(eq(importJobs.id, id));
}

/** The end of a job: its last figures, and the file dropped (the report keeps the rows' numbers). */
export async function finishImportJob(
  db: Db,
  id: number,
  status: 'done' | 'failed',
  progress: ImportProgress,
): Promise<void> {
  await db
    .update(importJobs)
    .set({ ...progress, status, source: '', finishedAt: sql`now()`, updatedAt: sql`now()` })
    .where(eq(importJobs.id, id));
}

/** Jobs waiting for the queue (a job whose pg-boss entry was lost is queued again by its id). */
export async function waitingImportJobs(db: Db): Promise<number[]> {
  const rows = await db
    .select({ id: importJobs.id })
    .from(importJobs)
    .where(eq(importJobs.status, 'queued'))
    .orderBy(importJobs.id)
    .limit(100);
  return rows.map((r) => r.id);
}
