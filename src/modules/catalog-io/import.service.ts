import type { FastifyBaseLogger } from 'fastify';
import type { WriteRequestContext } from '../../resources/index.ts';
import type { MediaStorage } from '../media/storage/storage.ts';
import { countRows, detectDelimiter, isCsvError, readCsv } from './csv-reader.ts';
import { claimImportJob, finishImportJob } from './import-job.repo.ts';
import { ImportBatches } from './import-batch.ts';
import { ImportImages } from './import-images.ts';
import { ImportRun, type RowGroup } from './import-run.ts';
import { type Header, type ProductRow, readHeader, readRow } from './woo-row.ts';

// One import, run by the job queue: the file is read as a stream of records, grouped by product
// (a simple row, or a variable row with the variation rows that follow it) and written a batch at
// a time (import-batch.ts); a refused row is reported with its row and column, the others land;
// a dry run rolls everything back.

export interface ImportDeps {
  rctx: Omit<WriteRequestContext, 'caller'>;
  log: FastifyBaseLogger;
  /** Where images fetched from the file's addresses are kept (the media library's storage). */
  mediaStorage: MediaStorage;
}

function belongsTo(pending: RowGroup, row: ProductRow): boolean {
  const { product } = pending;
  if (row.parent.startsWith('id:'))
    return product.fileId !== '' && row.parent.slice(3).trim() === product.fileId;
  return row.parent === product.sku;
}

async function readRows(run: ImportRun, source: string, header: Header, locales: readonly string[]) {
  const batches = new ImportBatches(run);
  let pending: RowGroup | null = null;
  try {
    await readGroups();
  } catch (err) {
    // A file csv-parse cannot read to its end: the rows before the place it stopped land.
    if (!isCsvError(err)) throw err;
    if (pending) await batches.add(pending);
    await batches.flush();
    throw err;
  }
  if (pending) await batches.add(pending);
  await batches.flush();

  async function readGroups() {
    for await (const record of readCsv(source)) {
      if (record.row === 1) continue;
      run.holdCells(record.row, record.cells);
      const { value, problems } = readRow(header, record, locales);
      if (!value) {
        run.report(problems);
        run.forgetCells(record.row);
        run.progress.processed++;
        const sku = record.cells[header.index.get('SKU') ?? -1]?.trim();
        if (sku) run.refusedSkus.add(sku);
        continue;
      }
      if (value.fileId) run.fileIds.set(value.fileId, value.sku);
      if (value.kind === 'variation' && pending && belongsTo(pending, value)) {
        pending.variations.push(value);
        continue;
      }
      if (pending) await batches.add(pending);
      pending = { product: value, variations: [] };
      if (value.kind !== 'variable') {
        await batches.add(pending);
        pending = null;
      }
    }
  }
}

/** The shop's locales other than the default: those a translation column may name. */
async function otherLocales(rctx: Omit<WriteRequestContext, 'caller'>): Promise<string[]> {
  const settings = await rctx.settingsSource.read(rctx.db);
  const locales = Array.isArray(settings.locales) ? settings.locales.map(String) : [];
  return locales.filter((l) => l !== settings.default_locale);
}

function imagesOf(deps: ImportDeps, rctx: WriteRequestContext, dryRun: boolean): ImportImages {
  const { config, db } = deps.rctx;
  const { maxBytes, timeoutMs, allowPrivateTargets } = config.import.images;
  return new ImportImages({
    media: { db, storage: deps.mediaStorage, maxPixels: config.media.maxPixels },
    limits: { maxBytes, timeoutMs, allowPrivate: allowPrivateTargets },
    caller: rctx.caller,
    dryRun,
    log: deps.log,
  });
}

/** Runs import job `jobId` to its end; the report and figures are in its row. */
export async function runImport(deps: ImportDeps, jobId: number): Promise<void> {
  const { db } = deps.rctx;
  const job = await claimImportJob(db, jobId);
  if (!job) return;
  const rctx: WriteRequestContext = {
    ...deps.rctx,
    caller: { kind: 'admin', sub: job.actor, roles: job.actorRoles },
  };
  const run = new ImportRun(db, jobId, rctx, job.dryRun, deps.log, job.fetchImages ? imagesOf(deps, rctx, job.dryRun) : undefined);
  const finish = (status: 'done' | 'failed') => finishImportJob(db, jobId, status, run.progress, run.rowsInError);
  try {
    let header: Header | undefined;
    run.rowsInError.delimiter = detectDelimiter(job.source);
    for await (const record of readCsv(job.source)) {
      run.rowsInError.header = record.cells;
      const read = readHeader(record.cells);
      run.report(read.problems);
      header = read.header;
      break;
    }
    if (!header || run.progress.errors.length > 0) {
      if (!header) run.report([{ row: 1, column: '', message: 'the file has no header line' }]);
      return await finish('failed');
    }
    run.progress.total = await countRows(job.source);
    await run.saveNow();
    await readRows(run, job.source, header, await otherLocales(deps.rctx));
    await finish('done');
  } catch (err) {
    // A file csv-parse cannot read (an unclosed quote…): the rows before it stay, the rest is reported.
    const message = isCsvError(err) ? err.message : 'the import stopped';
    if (!(err instanceof Error && 'code' in err)) deps.log.error({ err, jobId }, 'import failed');
    run.report([{ row: run.progress.processed + 2, column: '', message }]);
    await finish('failed');
  }
}
