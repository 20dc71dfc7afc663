import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { queryRows } from '../../db/client.ts';
import { listEntities, type RequestContext } from '../../resources/index.ts';
import { categories, products } from '../catalog/catalog.tables.ts';
import { productResource } from '../catalog/product.resource.ts';
import { productsByIds, type ShopProduct, type ShopVariant, variantsOfProducts } from './shop-catalog.repo.ts';
import { guardFormula, writeList, writeNumber, writePrice, writeTaxClass } from './woo-cells.ts';

// The catalog as WooCommerce's product CSV: a row per product (`simple` or `variable`) and one per
// variation after its product, in the columns the import reads, so that importing an export
// changes nothing. Streamed: products are read a page at a time through the product list (its
// filters, search and sort by id), the CSV written by csv-stringify as they come.

const PAGE = 500;
const FIXED = [
  'ID',
  'Type',
  'SKU',
  'Name',
  'Published',
  'Description',
  'Regular price',
  'Sale price',
  'Tax class',
  'In stock?',
  'Stock',
  'Weight (kg)',
  'Categories',
  'Images',
  'Parent',
] as const;

interface Layout {
  attributes: number;
  locales: string[];
}

function header(layout: Layout): string[] {
  const columns: string[] = [...FIXED];
  for (let n = 1; n <= layout.attributes; n++) columns.push(`Attribute ${n} name`, `Attribute ${n} value(s)`);
  for (const l of layout.locales) columns.push(`Name:${l}`, `Description:${l}`);
  return columns;
}

/** Each category's path of names from the root (`Clothing > Shirts`). */
async function categoryPaths(db: Db): Promise<Map<number, string>> {
  const rows = await db
    .select({ id: categories.id, parentId: categories.parentId, name: categories.name })
    .from(categories);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const paths = new Map<number, string>();
  const pathOf = (id: number, depth = 0): string => {
    const known = paths.get(id);
    if (known !== undefined) return known;
    const row = byId.get(id);
    if (!row) return '';
    const up = row.parentId === null || depth > 50 ? '' : pathOf(row.parentId, depth + 1);
    const path = up ? `${up} > ${row.name}` : row.name;
    paths.set(id, path);
    return path;
  };
  for (const r of rows) pathOf(r.id);
  return paths;
}

type Cells = string[];

function productCells(p: ShopProduct, variants: readonly ShopVariant[], layout: Layout, paths: Map<number, string>): Cells {
  const variable = p.options.length > 0;
  const stock = variants.reduce((sum, v) => sum + v.stockQty, 0);
  const cells = [
    String(p.id),
    variable ? 'variable' : 'simple',
    p.sku,
    p.name,
    p.active ? '1' : '0',
    p.description,
    writePrice(p.price),
    '',
    writeTaxClass(p.taxClass),
    stock > 0 ? '1' : '0',
    variable ? '' : String(stock),
    writeNumber(p.weightKg),
    p.categoryId === null ? '' : (paths.get(p.categoryId) ?? ''),
    writeList(p.images),
    '',
  ];
  for (let n = 0; n < layout.attributes; n++) {
    const o = p.options[n];
    cells.push(o?.name ?? '', o ? writeList(o.values) : '');
  }
  for (const l of layout.locales) cells.push(textOf(p.translations[l]?.name), textOf(p.translations[l]?.description));
  return cells;
}

const textOf = (value: unknown): string => (typeof value === 'string' ? value : '');

function variationCells(p: ShopProduct, v: ShopVariant, layout: Layout): Cells {
  const chosen = p.options.map((o) => v.options[o.name] ?? '');
  const cells = [
    String(v.id),
    'variation',
    v.sku,
    `${p.name} - ${chosen.join(', ')}`,
    v.active ? '1' : '0',
    '',
    writePrice(v.price),
    '',
    '',
    v.stockQty > 0 ? '1' : '0',
    String(v.stockQty),
    writeNumber(v.weightKg),
    '',
    writeList(v.images),
    p.sku,
  ];
  for (let n = 0; n < layout.attributes; n++) {
    const o = p.options[n];
    cells.push(o?.name ?? '', o ? writeList([v.options[o.name] ?? '']) : '');
  }
  for (const _ of layout.locales) cells.push('', '');
  return cells;
}

/** The ids of one page of the product list, with the list's own filters and search. */
async function pageIds(rctx: RequestContext, filters: Record<string, unknown>, page: number): Promise<number[]> {
  const json = await listEntities(rctx, productResource, { ...filters, sort: 'id', limit: PAGE, page });
  const { data } = JSON.parse(json.toString()) as { data: { id: number }[] };
  return data.map((r) => r.id);
}

async function* records(
  rctx: RequestContext,
  filters: Record<string, unknown>,
  layout: Layout,
  firstPage: number[],
): AsyncGenerator<Cells> {
  yield header(layout);
  const paths = await categoryPaths(rctx.db);
  for (let page = 1; ; page++) {
    const ids = page === 1 ? firstPage : await pageIds(rctx, filters, page);
    if (ids.length === 0) return;
    const variants = await variantsOfProducts(rctx.db, ids);
    for (const p of await productsByIds(rctx.db, ids)) {
      const own = variants.get(p.id) ?? [];
      yield productCells(p, own, layout, paths);
      if (p.options.length > 0) for (const v of own) yield variationCells(p, v, layout);
    }
    if (ids.length < PAGE) return;
  }
}

/** How many attribute columns the export has (the most options of any product), and its locales. */
async function layoutOf(rctx: RequestContext): Promise<Layout> {
  const [row] = await queryRows<{ n: number | null }>(
    rctx.db,
    sql`select max(jsonb_array_length(${products.options}))::int as n from ${products}`,
  );
  const settings = await rctx.settingsSource.read(rctx.db);
  const locales = Array.isArray(settings.locales) ? settings.locales.map(String) : [];
  return { attributes: row?.n ?? 0, locales: locales.filter((l) => l !== settings.default_locale) };
}

/** The export as a byte stream: a byte-order mark (spreadsheets then read UTF-8), then the CSV. */
export async function exportProductsCsv(rctx: RequestContext, filters: Record<string, unknown>): Promise<Readable> {
  const layout = await layoutOf(rctx);
  // The first page is read before the answer starts: filters the list refuses are a 400, not a
  // stream cut after its headers were sent.
  const firstPage = await pageIds(rctx, filters, 1);
  const csv = stringify({ bom: true, cast: { string: guardFormula } });
  const source = Readable.from(records(rctx, filters, layout, firstPage));
  source.on('error', (err) => csv.destroy(err));
  return source.pipe(csv);
}
