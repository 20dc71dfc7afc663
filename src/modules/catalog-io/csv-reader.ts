import { parse } from 'csv-parse';

// The one CSV reader of imports: csv-parse's streaming parser (quoted fields may hold the
// delimiter, quotes and newlines), UTF-8 with or without a byte-order mark, `,` or `;` as the
// delimiter (the one the header line uses, as spreadsheets set to Greek or German write `;`).

/** One record of the file: its number (1 is the header) and its cells as written. */
export interface CsvRecord {
  row: number;
  cells: string[];
}

const BOM = '\uFEFF';

/** The delimiter of a file: the one of `,` and `;` the header line uses more often, outside quotes. */
export function detectDelimiter(text: string): ',' | ';' {
  let commas = 0;
  let semicolons = 0;
  let quoted = false;
  for (let i = text.startsWith(BOM) ? 1 : 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '\n' || c === '\r')) break;
    else if (!quoted && c === ',') commas++;
    else if (!quoted && c === ';') semicolons++;
  }
  return semicolons > commas ? ';' : ',';
}

/** How much of the file the parser is given at a time: the records it holds are those of one piece. */
const PIECE_BYTES = 64 * 1024;

/**
 * The file's records, streamed from its text: the header first (row 1), then one per product row.
 * The parser is given the file a piece at a time and its records are taken after each piece, so a
 * file it cannot read to its end (an unclosed quote) still yields every record before that place,
 * then throws csv-parse's error.
 */
export async function* readCsv(text: string): AsyncGenerator<CsvRecord> {
  const parser = parse({
    bom: true,
    delimiter: detectDelimiter(text),
    relax_column_count: true,
    skip_empty_lines: true,
  });
  let failure: Error | undefined;
  const flushed = new Promise<void>((resolve) => {
    parser.once('finish', resolve);
    parser.once('error', (err) => {
      failure = err;
      resolve();
    });
  });
  let row = 0;
  function* taken(): Generator<CsvRecord> {
    for (let cells: string[] | null = parser.read(); cells !== null; cells = parser.read()) yield { row: ++row, cells };
  }
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length && failure === undefined; at += PIECE_BYTES) {
    parser.write(bytes.subarray(at, at + PIECE_BYTES));
    yield* taken();
  }
  parser.end();
  await flushed;
  yield* taken();
  if (failure) throw failure;
}

/**
 * How many product rows the file holds (records after the header), for the progress figure; of a
 * file csv-parse cannot read to its end, those before the place it stops (the import then reads
 * them, and reports the problem there).
 */
export async function countRows(text: string): Promise<number> {
  let rows = 0;
  try {
    for await (const _ of readCsv(text)) rows++;
  } catch (err) {
    if (!isCsvError(err)) throw err;
  }
  return Math.max(0, rows - 1);
}

/** A problem of the file's CSV syntax (csv-parse's codes), not of the import. */
export const isCsvError = (err: unknown): err is Error =>
  err instanceof Error && 'code' in err && String(err.code).startsWith('CSV_');

/**
 * Whether the bytes can be a CSV file: UTF-8 text without NUL bytes. A spreadsheet's binary
 * format, an image or a PDF fails here whatever its name says.
 */
export function csvText(bytes: Buffer): string | null {
  if (bytes.includes(0)) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}
