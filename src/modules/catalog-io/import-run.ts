import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { WriteRequestContext } from '../../resources/index.ts';
import type { ImportProblem, RowsInError } from './catalog-io.tables.ts';
import { CategoryPaths, type Outcome, refusalOf, RowRefused } from './catalog-sync.ts';
import { type ImportProgress, saveImportProgress } from './import-job.repo.ts';
import type { ImportImages } from './import-images.ts';
import { importSimple, importVariable, importVariation, type RowsContext, variantBodyOf } from './import-rows.ts';
import { productBySku, variantsBySku } from './shop-catalog.repo.ts';
import type { ProductRow } from './woo-row.ts';

// One import's state (figures, problems, categories, the file's ids) and the row-by-row path: a
// simple row, or a variable row with its variation rows, in a transaction of its own, so that a
// refused one is reported with its rows and columns and the others land; a dry run rolls it back.

/** Problems kept in a job's report; a file with more is reported by its first ones. */
const PROBLEMS_KEPT = 5000;
/**
 * Characters of failing rows kept for the file of rows in error (with the problems' bound, it
 * bounds what the job's row holds); a file with more gives its first failing rows.
 */
const ROWS_IN_ERROR_CHARS = 8_000_000;
/** How often the figures the back office polls are written. */
const PROGRESS_EVERY_MS = 500;

/** Thrown at the end of a dry run's transaction, so that nothing it wrote stays. */
export class DryRunRollback<T> extends Error {
  constructor(readonly result: T) {
    super('dry run');
  }
}

/** A product of the file: a simple row, a variable row with its variation rows, or a variation alone. */
export interface RowGroup {
  product: ProductRow;
  variations: ProductRow[];
}

export const rowsOf = (group: RowGroup) => [group.product, ...group.variations];

export class ImportRun {
  readonly progress: ImportProgress = { total: 0, processed: 0, created: 0, updated: 0, unchanged: 0, errors: [] };
  readonly categories = new CategoryPaths();
  /** `ID` → `SKU` of the rows read, for `Parent: id:NN`. */
  readonly fileIds = new Map<string, string>();
  /** SKUs of rows that did not land: their variations are refused with a reason. */
  readonly refusedSkus = new Set<string>();
  /** The failing rows' cells as the file wrote them, with the header, for the file of rows in error. */
  readonly rowsInError: RowsInError = { delimiter: ',', header: [], rows: [] };
  /** The cells of the rows read and not yet done (a batch's), by row. */
  private readonly cells = new Map<number, string[]>();
  private failedRows = new Set<number>();
  private keptChars = 0;
  private savedAt = Date.now();

  constructor(
    readonly db: Db,
    readonly jobId: number,
    readonly rctx: WriteRequestContext,
    readonly dryRun: boolean,
    readonly log: FastifyBaseLogger,
    /** Set when the import takes the `Images` addresses into the media library. */
    readonly images?: ImportImages,
  ) {}

  /** A row read from the file: its cells are kept until it is done, in case it fails. */
  holdCells(row: number, cells: string[]): void {
    this.cells.set(row, cells);
  }

  forgetCells(row: number): void {
    this.cells.delete(row);
  }

  private keepFailedRow(row: number): void {
    const cells = this.cells.get(row);
    if (!cells || this.failedRows.has(row)) return;
    const chars = cells.reduce((n, c) => n + c.length + 1, 0);
    if (this.keptChars + chars > ROWS_IN_ERROR_CHARS) return;
    this.keptChars += chars;
    this.failedRows.add(row);
    this.rowsInError.rows.push({ row, cells });
  }

  /** Keeps problems in the file's order: a batch reports its rows after the rows read past it. */
  report(problems: readonly ImportProblem[]): void {
    const { errors } = this.progress;
    for (const problem of problems.slice(0, Math.max(0, PROBLEMS_KEPT - errors.length))) {
      let at = errors.length;
      while (at > 0 && errors[at - 1].row > problem.row) at--;
      errors.splice(at, 0, problem);
      this.keepFailedRow(problem.row);
    }
  }

  /** Rows done without a problem. */
  done(outcome: Outcome, rows: number): Promise<void> {
    this.progress[outcome] += rows;
    this.progress.processed += rows;
    return this.save();
  }

  async saveNow(): Promise<void> {
    this.savedAt = Date.now();
    await saveImportProgress(this.db, this.jobId, this.progress);
  }

  async save(): Promise<void> {
    if (Date.now() - this.savedAt >= PROGRESS_EVERY_MS) await this.saveNow();
  }

  /** Runs one product's writes in a transaction of their own (rolled back on a dry run). */
  async inTransaction(rows: readonly ProductRow[], work: (ctx: RowsContext) => Promise<Map<number, Outcome>>) {
    const rowProblems: ImportProblem[] = [];
    let outcomes = new Map<number, Outcome>();
    try {
      outcomes = await this.db.transaction(async (tx) => {
        const done = await work({ rctx: { ...this.rctx, db: tx }, categories: this.categories, problems: rowProblems });
        if (this.dryRun) throw new DryRunRollback(done);
        return done;
      });
      this.categories.commit();
    } catch (err) {
      this.categories.rollback();
      if (err instanceof DryRunRollback) outcomes = err.result as Map<number, Outcome>;
      else {
        const refused = refusalOf(err, rows[0].row);
        if (!refused) this.log.error({ err, jobId: this.jobId, row: rows[0].row }, 'import row failed');
        rowProblems.length = 0;
        rowProblems.push(...(refused ?? [{ row: rows[0].row, column: '', message: 'could not be written' }]));
        for (const row of rows.slice(1)) rowProblems.push({ row: row.row, column: 'Parent', message: 'the parent row was not imported' });
      }
    }
    for (const o of outcomes.values()) this.progress[o]++;
    if (outcomes.size === 0 && rows.length > 0) this.refusedSkus.add(rows[0].sku);
    this.report(rowProblems);
    this.progress.processed += rows.length;
    await this.save();
  }

  /** The product a variation row names by `Parent` (its SKU or `id:NN` of the file), or '' when none. */
  parentSku(row: ProductRow): string {
    return row.parent.startsWith('id:') ? (this.fileIds.get(row.parent.slice(3).trim()) ?? '') : row.parent;
  }
}

async function importOrphanVariation(run: ImportRun, row: ProductRow): Promise<void> {
  await run.inTransaction([row], async (ctx) => {
    const sku = run.parentSku(row);
    const refuse = (message: string) => {
      throw new RowRefused([{ row: row.row, column: 'Parent', message }]);
    };
    if (run.refusedSkus.has(sku)) refuse('the parent row was not imported');
    const parent = sku === '' ? undefined : await productBySku(ctx.rctx.db, sku);
    if (!parent) return refuse(`"${row.parent}" is no product of the file or the shop`);
    if (parent.options.length === 0) refuse(`"${row.parent}" is not a variable product`);
    const [shop] = await variantsBySku(ctx.rctx.db, [row.sku]);
    const outcome = await importVariation(ctx, parent.id, row, variantBodyOf(row, shop?.position ?? 0), shop);
    return new Map(outcome ? [[row.row, outcome]] : []);
  });
}

/** One product of the file by the row-by-row path. */
export async function importGroup(run: ImportRun, { product, variations }: RowGroup): Promise<void> {
  if (product.kind === 'variation') return importOrphanVariation(run, product);
  if (product.kind === 'variable') {
    return run.inTransaction([product, ...variations], (ctx) => importVariable(ctx, product, variations));
  }
  await run.inTransaction([product], async (ctx) => new Map([[product.row, await importSimple(ctx, product)]]));
}
