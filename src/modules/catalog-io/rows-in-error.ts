import { stringify } from 'csv-stringify/sync';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../http/errors.ts';
import type { ImportProblem } from './catalog-io.tables.ts';
import { rowsInErrorOf } from './import-job.repo.ts';
import { guardFormula, unguardFormula } from './woo-cells.ts';

// The rows of an import that failed, as the file wrote them (its header, its delimiter, every
// cell), with one more column saying what was wrong: the merchant fixes them in a spreadsheet and
// imports that file again, which the import reads as it read the first (the extra column is one
// it does not know, so it is ignored).

/** The column added at the end of the header; the import ignores it. */
export const PROBLEMS_COLUMN = 'Import problems';

function problemsByRow(errors: readonly ImportProblem[]): Map<number, string> {
  const byRow = new Map<number, string[]>();
  for (const p of errors) {
    const text = p.column ? `${p.column}: ${p.message}` : p.message;
    byRow.set(p.row, [...(byRow.get(p.row) ?? []), text]);
  }
  return new Map([...byRow].map(([row, texts]) => [row, texts.join('; ')]));
}

/**
 * A cell as the rows-in-error file writes it: what the import read from the original cell, then
 * guarded as the export guards a formula-looking text, so that it reads back the same.
 */
const asWritten = (cell: string) => guardFormula(unguardFormula(cell));

/** The CSV of the failing rows of import `id` (a byte-order mark first, as the export); 409 while it runs. */
export async function rowsInErrorCsv(db: Db, id: number): Promise<string> {
  const job = await rowsInErrorOf(db, id);
  if (!job) throw new AppError('NOT_FOUND', `import ${id} not found`);
  if (job.status === 'queued' || job.status === 'running') {
    throw new AppError('IMPORT_NOT_OVER', `import ${id} is not over yet`);
  }
  const kept = job.rowsInError ?? { delimiter: ',', header: [], rows: [] };
  const problems = problemsByRow(job.errors);
  // A file of rows in error imported again has the column already: its old problems are dropped.
  const columns = kept.header.map((_, i) => i).filter((i) => kept.header[i] !== PROBLEMS_COLUMN);
  // Cells past the header's are not kept: the import never reads them.
  const fit = (cells: readonly string[]) => columns.map((i) => cells[i] ?? '');
  const records = [
    [...fit(kept.header), PROBLEMS_COLUMN],
    ...kept.rows.map((r) => [...fit(r.cells), problems.get(r.row) ?? '']),
  ];
  return stringify(records, { bom: true, delimiter: kept.delimiter, record_delimiter: '\r\n', cast: { string: asWritten } });
}
