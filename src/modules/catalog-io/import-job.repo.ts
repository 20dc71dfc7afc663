import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { type ImportProblem, importJobs, type RowsInError } from './catalog-io.tables.ts';

export type ImportStatus = 'queued' | 'running' | 'done' | 'failed';

export interface NewImportJob {
  source: string;
  fileName: string;
  dryRun: boolean;
  fetchImages: boolean;
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
      fetchImages: importJobs.fetchImages,
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
      fetchImages: importJobs.fetchImages,
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

/**
 * The end of a job: its last figures and the failing rows' cells; the file is dropped (the report
 * keeps the rows' numbers, the rows in error their cells).
 */
export async function finishImportJob(
  db: Db,
  id: number,
  status: 'done' | 'failed',
  progress: ImportProgress,
  rowsInError: RowsInError,
): Promise<void> {
  const rows = [...rowsInError.rows].sort((a, b) => a.row - b.row);
  await db
    .update(importJobs)
    .set({
      ...progress,
      status,
      source: '',
      rowsInError: { ...rowsInError, rows },
      finishedAt: sql`now()`,
      updatedAt: sql`now()`,
    })
    .where(eq(importJobs.id, id));
}

/** What the file of rows in error is made from: the job's state, its problems and the failing rows' cells. */
export async function rowsInErrorOf(db: Db, id: number) {
  const [row] = await db
    .select({ status: importJobs.status, errors: importJobs.errors, rowsInError: importJobs.rowsInError })
    .from(importJobs)
    .where(eq(importJobs.id, id));
  return row;
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
