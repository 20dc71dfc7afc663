// How both engines' all-JSON statements bind a value: as PostgreSQL's text form, which the server
// reads by the statement's parameter type (src/db/pglite-statements.ts, src/db/postgres-statements.ts).

function arrayElement(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number') return String(value);
  return `"${String(value).replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/**
 * A bound value in PostgreSQL's text format, read by the statement's parameter type. A NUL
 * character is refused by the database itself (22021), as it is for any bound value.
 */
export function parameterText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
    return String(value);
  }
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return `{${value.map(arrayElement).join(',')}}`;
  return String(value);
}
