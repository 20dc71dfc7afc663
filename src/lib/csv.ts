// CSV as RFC 4180 writes it: comma-separated, CRLF line ends, a field quoted when it holds a comma,
// a quote or a line break. A text starting with = + - @ (or a tab / carriage return) is prefixed
// with a single quote, so a spreadsheet opening the file never runs it as a formula.

export type CsvValue = string | number | boolean | null | undefined;

const NEEDS_QUOTES = /[",\r\n]/;
const FORMULA = /^[=+\-@\t\r]/;

export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'string') return String(value);
  const text = FORMULA.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvRow(values: readonly CsvValue[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

/** A header and rows of objects, the columns in the header's order. */
export function csvTable<T extends Record<string, CsvValue>>(
  columns: readonly (keyof T & string)[],
  rows: readonly T[],
): string {
  return csvRow(columns) + rows.map((r) => csvRow(columns.map((c) => r[c]))).join('');
}
