import { fromCents, toCents } from '../../lib/money.ts';
import { INT32_MAX } from '../../resources/index.ts';

// One cell of WooCommerce's product CSV, read into the catalog's terms and written back the same
// way, so that an export imports to the same catalog. Each reader throws CellError with the
// message that goes into the import's report beside the row and column.

export class CellError extends Error {}

/** The catalog's largest price (the money fields' bound), in cents. */
const PRICE_MAX_CENTS = 1_000_000_000;

/** A decimal as WooCommerce and spreadsheets write it: `12.50`, or `12,50` with a decimal comma. */
function decimalText(cell: string): string {
  const text = cell.trim();
  return /^\d+,\d+$/.test(text) ? text.replace(',', '.') : text;
}

/** A price in cents; an empty cell is null. */
export function readPrice(cell: string): number | null {
  const text = decimalText(cell);
  if (text === '') return null;
  if (text.startsWith('-')) throw new CellError('must not be negative');
  if (!/^\d+(\.\d+)?$/.test(text)) throw new CellError(`"${cell}" is not a price`);
  let cents: number;
  try {
    cents = toCents(text);
  } catch {
    throw new CellError('must have at most two decimals');
  }
  if (cents > PRICE_MAX_CENTS) throw new CellError('is over the largest price the shop holds (10000000)');
  return cents;
}

export function writePrice(cents: number | null): string {
  return cents === null ? '' : fromCents(cents).toFixed(2);
}

/** A stock quantity; an empty cell is null (stock not managed: the shop's figure stays). */
export function readStock(cell: string): number | null {
  const text = cell.trim();
  if (text === '') return null;
  if (!/^-?\d+$/.test(text)) throw new CellError(`"${cell}" is not a whole number`);
  const n = Number(text);
  if (n < 0) throw new CellError('must not be negative');
  if (n > INT32_MAX) throw new CellError('is over the largest stock the shop holds');
  return n;
}

/** A weight in kg (up to three decimals); an empty cell is null. */
export function readWeight(cell: string): number | null {
  const text = decimalText(cell);
  if (text === '') return null;
  if (!/^\d+(\.\d{1,3})?$/.test(text)) throw new CellError(`"${cell}" is not a weight in kg`);
  const n = Number(text);
  if (n > 100_000) throw new CellError('is over 100000 kg');
  return n;
}

export function writeNumber(n: number | null): string {
  return n === null ? '' : String(n);
}

/** `Published`: 1 is published; 0 (private) and -1 (draft) are not; empty is published. */
export function readPublished(cell: string): boolean {
  const text = cell.trim();
  if (text === '' || text === '1') return true;
  if (text === '0' || text === '-1') return false;
  throw new CellError(`"${cell}" is not 1, 0 or -1`);
}

const TAX_CLASS_OF: Record<string, string> = {
  '': 'standard',
  standard: 'standard',
  'reduced-rate': 'reduced',
  reduced: 'reduced',
  'super-reduced-rate': 'super_reduced',
  super_reduced: 'super_reduced',
  'zero-rate': 'zero',
  zero: 'zero',
};

const WOO_TAX_CLASS: Record<string, string> = {
  standard: '',
  reduced: 'reduced-rate',
  super_reduced: 'super-reduced-rate',
  zero: 'zero-rate',
};

/** `Tax class`: WooCommerce's slugs (empty is the standard rate) to the shop's tax classes. */
export function readTaxClass(cell: string): string {
  const taxClass = TAX_CLASS_OF[cell.trim().toLowerCase()];
  if (!taxClass) throw new CellError(`"${cell}" is not a tax class (standard, reduced-rate, zero-rate)`);
  return taxClass;
}

export function writeTaxClass(taxClass: string): string {
  return WOO_TAX_CLASS[taxClass] ?? '';
}

/**
 * A list cell (`A, B`), WooCommerce's way: items separated by commas, a comma inside an item
 * written `\,`. Empty items are dropped.
 */
export function readList(cell: string): string[] {
  const items: string[] = [];
  let current = '';
  for (let i = 0; i < cell.length; i++) {
    const c = cell[i];
    if (c === '\\' && cell[i + 1] === ',') {
      current += ',';
      i++;
    } else if (c === ',') {
      items.push(current.trim());
      current = '';
    } else current += c;
  }
  items.push(current.trim());
  return items.filter((item) => item !== '');
}

export function writeList(items: readonly string[]): string {
  return items.map((item) => item.replaceAll(',', '\\,')).join(', ');
}

/** `Categories`: the first path (`Clothing > Shirts`), as names from the root; the shop files a product under one. */
export function readCategoryPath(cell: string): string[] | null {
  const first = readList(cell)[0];
  if (first === undefined) return null;
  const names = first.split('>').map((name) => name.trim());
  if (names.some((name) => name === '')) throw new CellError(`"${first}" has an empty category name`);
  if (names.some((name) => name.length > 100)) throw new CellError('has a category name over 100 characters');
  return names;
}

/** An image of the shop's own library as the export writes it (`/media/7/mug.jpg`). */
const LIBRARY_IMAGE = /^\/media\/(\d{1,9})\/[^\s/?#]+$/;

/** The asset an `Images` item names when it is an address of the shop's own library. */
export function libraryAssetId(item: string): number | undefined {
  const match = LIBRARY_IMAGE.exec(item);
  return match ? Number(match[1]) : undefined;
}

/** `Images`: http(s) addresses, or the library's own (`/media/…`, as the export writes them). */
export function readImages(cell: string): string[] {
  const urls = readList(cell);
  for (const url of urls) {
    if (!/^https?:\/\/[^\s]+$/i.test(url) && libraryAssetId(url) === undefined) {
      throw new CellError(`"${url}" is not an http(s) address`);
    }
  }
  if (urls.length > 20) throw new CellError('names more than 20 images');
  return urls;
}

/** A cell a spreadsheet would run as a formula; apostrophes first, since reading takes one off. */
const FORMULA_START = /^'*[=+\-@\t\r]/;

/**
 * A cell a spreadsheet would run as a formula (`=`, `+`, `-`, `@` first) is written with a leading
 * apostrophe, which spreadsheets show as text; reading takes the apostrophe off again (a text
 * that already starts with apostrophes before such a sign gets one more, so it reads back whole).
 */
export function guardFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

export function unguardFormula(text: string): string {
  return text.startsWith("'") && FORMULA_START.test(text.slice(1)) ? text.slice(1) : text;
}
