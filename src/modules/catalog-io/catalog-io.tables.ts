import { boolean, index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { timestamps } from '../../db/columns.ts';

/** A problem with one cell (or one row, or the header) of an imported file. */
export interface ImportProblem {
  /** The file's line of records: 1 is the header, 2 the first product. */
  row: number;
  /** The column's name as the file writes it; empty when the whole row is concerned. */
  column: string;
  message: string;
}

/**
 * The failing rows of an import as the file wrote them, for the file of rows in error: the
 * header's cells, the delimiter, and each failing row's cells (bounded: see import-run.ts).
 */
export interface RowsInError {
  delimiter: ',' | ';';
  header: string[];
  rows: { row: number; cells: string[] }[];
}

/**
 * One catalog import: the uploaded CSV (checked as UTF-8 text on arrival), who sent it, and the
 * job's progress and per-row problems, which the back office polls while pg-boss runs it.
 */
export const importJobs = pgTable(
  'import_job',
  {
    id: serial('id').primaryKey(),
    /** queued, running, done or failed. */
    status: text('status').notNull().default('queued'),
    dryRun: boolean('dry_run').notNull().default(false),
    /** The `Images` addresses are fetched into the media library (off: kept as addresses). */
    fetchImages: boolean('fetch_images').notNull().default(false),
    /** The file as received; emptied once the import is over. */
    source: text('source').notNull(),
    fileName: text('file_name').notNull().default(''),
    /** The admin who sent it (the writes are theirs in the audit log) and their roles then. */
    actor: text('actor').notNull(),
    actorRoles: jsonb('actor_roles').$type<number[]>().notNull(),
    total: integer('total').notNull().default(0),
    processed: integer('processed').notNull().default(0),
    created: integer('created').notNull().default(0),
    updated: integer('updated').notNull().default(0),
    unchanged: integer('unchanged').notNull().default(0),
    errors: jsonb('errors').$type<ImportProblem[]>().notNull().default([]),
    /** Written when the job ends; null before. */
    rowsInError: jsonb('rows_in_error').$type<RowsInError>(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [index('import_job_status_idx').on(t.status)],
);
