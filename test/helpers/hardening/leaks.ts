// What must never reach a client (docs/hardening.md, "Fuzzing"): stack traces, SQL text, PostgreSQL error codes,
// internal paths; and, in storefront answers, back-office fields.

const INTERNALS: [string, RegExp][] = [
  ['stack trace', /\bat (?:async )?[\w$.<>]+ \(|\n\s+at [\w$.<>]+|Error: .*\n\s+at /],
  ['file path', /\/work\/|node_modules|\.ts:\d+|\.js:\d+:\d+|file:\/\//],
  ['SQL text', /\b(?:select\s+[\w"*,.\s]+\s+from|insert\s+into|update\s+"?\w+"?\s+set|delete\s+from)\s/i],
  [
    'SQL error',
    /syntax error at or near|violates (?:unique|foreign key|check|not-null) constraint|relation "\w+" does not exist|column "\w+" (?:of relation|does not exist)|duplicate key value|invalid input syntax for|out of range for type|current transaction is aborted|Failed query:|PostgresError|DatabaseError/i,
  ],
  [
    'PostgreSQL error code',
    /SQLSTATE|"code"\s*:\s*"(?:\d{2}[0-9A-Z]{3})"|\b(?:23505|23503|23502|22P02|22003|42P01|42703|40001|40P01|57014|53300|08006|25P02)\b/,
  ],
];

/** Checked in error bodies only: a success body may echo a client's "12345" or "select … from". */
const ERROR_ONLY = new Set(['SQL text', 'PostgreSQL error code']);

/** The first kind of internal detail found in a response body, or null. */
export function internalLeak(text: string): string | null {
  const isError = /"success"\s*:\s*false/.test(text);
  for (const [kind, re] of INTERNALS) {
    if (!isError && ERROR_ONLY.has(kind)) continue;
    const m = re.exec(text);
    if (m) return `${kind}: …${text.slice(Math.max(0, m.index - 40), m.index + 60)}…`;
  }
  return null;
}

/** Fields only the back office may read; none may appear in a guest's or a customer's answer. */
export const BACK_OFFICE_FIELDS = [
  'costPrice',
  'stockQty',
  'supplierCode',
  'adminNotes',
  'passwordHash',
  'password_hash',
  'password',
  'usedCount',
  'internalNotes',
];

/** Paths (a.b.c) of back-office keys anywhere in a JSON value. */
export function backOfficeKeys(value: unknown, path = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => backOfficeKeys(v, `${path}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  const found: string[] = [];
  for (const [k, v] of Object.entries(value)) {
    const here = path ? `${path}.${k}` : k;
    if (BACK_OFFICE_FIELDS.includes(k)) found.push(here);
    found.push(...backOfficeKeys(v, here));
  }
  return found;
}

/** E-mail addresses in a JSON text. */
export function emailsIn(text: string): string[] {
  return text.match(/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g) ?? [];
}
