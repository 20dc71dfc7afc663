import type { ImportProblem } from './catalog-io.tables.ts';
import {
  CellError,
  libraryAssetId,
  readCategoryPath,
  readImages,
  readList,
  readPrice,
  readPublished,
  readStock,
  readTaxClass,
  readWeight,
  unguardFormula,
} from './woo-cells.ts';

// A row of WooCommerce's product CSV as the catalog sees it (docs/import-export.md lists the
// columns). Plain data: every problem is collected with its row and column, nothing is written.

export type RowKind = 'simple' | 'variable' | 'variation';

export interface Attribute {
  name: string;
  /** The variable row's values (`S, M, L`), or the variation's one value. */
  values: string[];
}

export interface ProductRow {
  row: number;
  kind: RowKind;
  /** The file's own `ID`, which `Parent` may name as `id:NN`. */
  fileId: string;
  sku: string;
  name: string;
  active: boolean;
  /** null: the file has no such column (the shop's value stays). */
  description: string | null;
  /** Cents; null when the cell is empty. */
  price: number | null;
  taxClass: string;
  stock: number | null;
  weightKg: number | null;
  /** null: an empty cell (no category); undefined: no such column. */
  categoryPath: string[] | null | undefined;
  /** The `Images` addresses; null: no such column, or taken into the media library (`mediaIds`). */
  images: string[] | null;
  /** The library's images of the `Images` addresses when the import fetches them; null: not written. */
  mediaIds: number[] | null;
  parent: string;
  attributes: Attribute[];
  /** `{el: {name, description}}` from `Name:el`, `Description:el`. */
  translations: Record<string, Record<string, string>>;
}

export const REQUIRED_COLUMNS = ['SKU', 'Name'] as const;
const ATTRIBUTE_NAME = /^Attribute (\d+) name$/;
const TRANSLATION = /^(Name|Description):([A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})?)$/;

/** Where each known column is in the file. */
export interface Header {
  index: Map<string, number>;
  /** Attribute numbers present, in order. */
  attributes: number[];
  translations: { column: string; field: 'name' | 'description'; locale: string }[];
}

/** The header's columns; the problems of a header the import cannot read (a required column missing). */
export function readHeader(cells: readonly string[]): { header: Header; problems: ImportProblem[] } {
  const index = new Map<string, number>();
  cells.forEach((cell, i) => {
    const name = cell.trim();
    if (!index.has(name)) index.set(name, i);
  });
  const attributes = [...index.keys()]
    .map((name) => ATTRIBUTE_NAME.exec(name)?.[1])
    .filter((n): n is string => n !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
  const translations = [...index.keys()].flatMap((column) => {
    const match = TRANSLATION.exec(column);
    if (!match) return [];
    const field = match[1] === 'Name' ? ('name' as const) : ('description' as const);
    return [{ column, field, locale: match[2] }];
  });
  const problems = REQUIRED_COLUMNS.filter((c) => !index.has(c)).map((column) => ({
    row: 1,
    column,
    message: 'is missing from the header line',
  }));
  return { header: { index, attributes, translations }, problems };
}

function kindOf(cell: string): RowKind {
  const types = readList(cell.toLowerCase());
  if (types.length === 0 || types.includes('simple')) return 'simple';
  if (types.includes('variation')) return 'variation';
  if (types.includes('variable')) return 'variable';
  throw new CellError(`"${cell}" products are not imported (simple, variable or variation)`);
}

/**
 * Reads one record against the header. `locales` are the shop's other locales: a translation
 * column of another one is a problem of its own.
 */
export function readRow(
  header: Header,
  record: { row: number; cells: readonly string[] },
  locales: readonly string[],
): { value: ProductRow | null; problems: ImportProblem[] } {
  const { row, cells } = record;
  const problems: ImportProblem[] = [];
  const has = (column: string) => header.index.has(column);
  const text = (column: string) => {
    const i = header.index.get(column);
    return i === undefined ? '' : unguardFormula(cells[i] ?? '');
  };
  function cell<T>(column: string, read: (cell: string) => T, fallback: T): T {
    try {
      return read(text(column));
    } catch (err) {
      if (!(err instanceof CellError)) throw err;
      problems.push({ row, column, message: err.message });
      return fallback;
    }
  }
  const kind = cell('Type', kindOf, 'simple');
  const sku = text('SKU').trim();
  const name = text('Name').trim();
  if (sku === '') problems.push({ row, column: 'SKU', message: 'is required' });
  else if (sku.length > 64) problems.push({ row, column: 'SKU', message: 'is over 64 characters' });
  if (kind !== 'variation' && name === '') problems.push({ row, column: 'Name', message: 'is required' });
  if (name.length > 200) problems.push({ row, column: 'Name', message: 'is over 200 characters' });
  if (text('Description').length > 20_000) problems.push({ row, column: 'Description', message: 'is over 20000 characters' });
  const price = cell('Regular price', readPrice, null);
  if (kind === 'simple' && price === null && !problems.some((p) => p.column === 'Regular price')) {
    problems.push({ row, column: 'Regular price', message: 'is required for a simple product' });
  }
  const parent = text('Parent').trim();
  if (kind === 'variation' && parent === '') problems.push({ row, column: 'Parent', message: 'is required for a variation' });
  const attributes = readAttributes(header, text, kind, row, problems);
  const translations: Record<string, Record<string, string>> = {};
  for (const t of header.translations) {
    const value = text(t.column).trim();
    if (value === '') continue;
    if (!locales.includes(t.locale)) {
      problems.push({ row, column: t.column, message: `"${t.locale}" is not one of the shop's other locales` });
      continue;
    }
    translations[t.locale] = { ...translations[t.locale], [t.field]: value };
  }
  const value: ProductRow = {
    row,
    kind,
    fileId: text('ID').trim(),
    sku,
    name,
    active: cell('Published', readPublished, true),
    description: has('Description') ? text('Description') : null,
    price,
    taxClass: cell('Tax class', readTaxClass, 'standard'),
    stock: cell('Stock', readStock, null),
    weightKg: cell('Weight (kg)', readWeight, null),
    categoryPath: has('Categories') ? cell('Categories', readCategoryPath, null) : undefined,
    images: has('Images') ? cell('Images', readImages, []) : null,
    mediaIds: null,
    parent,
    attributes,
    translations,
  };
  // The library's own images (an export of the shop's media) are its images again, by asset.
  const library = value.images?.map(libraryAssetId) ?? [];
  if (library.length > 0 && library.every((id) => id !== undefined)) {
    value.mediaIds = library as number[];
    value.images = null;
  }
  // In the file's column order, as a reader of the report goes along the row.
  const at = (column: string) => header.index.get(column) ?? Number.MAX_SAFE_INTEGER;
  problems.sort((a, b) => at(a.column) - at(b.column));
  return { value: problems.length ? null : value, problems };
}

function readAttributes(
  header: Header,
  text: (column: string) => string,
  kind: RowKind,
  row: number,
  problems: ImportProblem[],
): Attribute[] {
  const attributes: Attribute[] = [];
  for (const n of header.attributes) {
    const name = text(`Attribute ${n} name`).trim();
    const column = `Attribute ${n} value(s)`;
    const values = readList(text(column));
    if (name === '') continue;
    if (name.length > 50) problems.push({ row, column: `Attribute ${n} name`, message: 'is over 50 characters' });
    if (values.length === 0 && kind !== 'simple') problems.push({ row, column, message: 'is required' });
    else if (kind === 'variation' && values.length > 1) problems.push({ row, column, message: 'names one value for a variation' });
    else if (values.some((v) => v.length > 100)) problems.push({ row, column, message: 'has a value over 100 characters' });
    else if (new Set(values).size !== values.length) problems.push({ row, column, message: 'names a value twice' });
    attributes.push({ name, values });
  }
  if (new Set(attributes.map((a) => a.name)).size !== attributes.length) {
    problems.push({ row, column: 'Attribute 1 name', message: 'names an attribute twice' });
  }
  return attributes;
}
