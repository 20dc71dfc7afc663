import type { Values } from '../../resources/index.ts';
import { createProducts } from '../catalog/product-batch.ts';
import { RowRefused } from './catalog-sync.ts';
import { holdsAlready, newProductBody } from './import-rows.ts';
import { DryRunRollback, importGroup, type ImportRun, type RowGroup, rowsOf } from './import-run.ts';
import { productsBySkus, variantsBySku } from './shop-catalog.repo.ts';

// The file's products a batch at a time: what the shop holds for the batch's SKUs is read in two
// statements; a product it holds as the rows give it writes nothing; the new ones are created
// together (one statement per table, one transaction). Anything else (a change, a variation on
// its own, a SKU met twice, a refusal) takes the row-by-row path, which reports each problem with
// its row and column while the other rows land.

/** Rows per batch: bounds the memory a batch holds and the work a refused batch does again. */
const BATCH_ROWS = 200;

export class ImportBatches {
  private groups: RowGroup[] = [];
  private rows = 0;

  constructor(private readonly run: ImportRun) {}

  async add(group: RowGroup): Promise<void> {
    this.groups.push(group);
    this.rows += 1 + group.variations.length;
    if (this.rows >= BATCH_ROWS) await this.flush();
  }

  async flush(): Promise<void> {
    const groups = this.groups;
    this.groups = [];
    this.rows = 0;
    if (groups.length === 0) return;
    const rows = groups.flatMap(rowsOf);
    if (this.run.images) this.run.report(await this.run.images.resolve(rows));
    await importBatch(this.run, groups);
    for (const row of rows) this.run.forgetCells(row.row);
  }
}

async function importBatch(run: ImportRun, groups: readonly RowGroup[]): Promise<void> {
  const skus = groups.flatMap((g) => rowsOf(g).map((r) => r.sku));
  const products = new Map((await productsBySkus(run.db, groups.map((g) => g.product.sku))).map((p) => [p.sku, p]));
  const variants = new Map((await variantsBySku(run.db, skus)).map((v) => [v.sku, v]));
  const seen = new Set<string>();
  let creates: RowGroup[] = [];
  for (const group of groups) {
    const rows = rowsOf(group);
    const again = rows.some((r) => seen.has(r.sku));
    for (const r of rows) seen.add(r.sku);
    // What the batch read may be stale for these: the rows before them are written first.
    if (again || group.product.kind === 'variation') {
      await createBatch(run, creates);
      creates = [];
      await importGroup(run, group);
      continue;
    }
    const shop = products.get(group.product.sku);
    const path = group.product.categoryPath;
    const categoryId = path ? run.categories.known(path) : path;
    if (!shop) {
      // The catalog's batch write takes no media: a product with images of the library goes alone.
      if (rows.some((r) => variants.has(r.sku) || r.mediaIds !== null)) await importGroup(run, group);
      else creates.push(group);
    } else if ((!path || categoryId !== undefined) && holdsAlready(group.product, group.variations, shop, variants, categoryId)) {
      await run.done('unchanged', rows.length);
    } else await importGroup(run, group);
  }
  await createBatch(run, creates);
}

/** The new products of a batch in one transaction; when it is refused, each by the row-by-row path. */
async function createBatch(run: ImportRun, groups: readonly RowGroup[]): Promise<void> {
  if (groups.length === 0) return;
  const refused: RowGroup[] = [];
  let written: RowGroup[] = [];
  try {
    written = await run.db.transaction(async (tx) => {
      const ctx = { rctx: { ...run.rctx, db: tx }, categories: run.categories, problems: [] };
      const bodies: Values[] = [];
      const taken: RowGroup[] = [];
      for (const group of groups) {
        try {
          bodies.push(await newProductBody(ctx, group.product, group.variations));
          taken.push(group);
        } catch (err) {
          if (!(err instanceof RowRefused)) throw err;
          refused.push(group);
        }
      }
      await createProducts(ctx.rctx, bodies);
      if (run.dryRun) throw new DryRunRollback(taken);
      return taken;
    });
    run.categories.commit();
  } catch (err) {
    run.categories.rollback();
    if (!(err instanceof DryRunRollback)) {
      for (const group of groups) await importGroup(run, group);
      return;
    }
    written = err.result as RowGroup[];
  }
  for (const group of written) await run.done('created', rowsOf(group).length);
  for (const group of refused) await importGroup(run, group);
}
