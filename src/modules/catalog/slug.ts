import { inArray, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';

/** "Café Crème 500 g" → "cafe-creme-500-g"; bounded, never empty. */
export function slugify(text: string, maxLength = 120): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, maxLength)
    .replace(/-+$/g, '');
  return slug || 'item';
}

/**
 * The base slug, or base-2, base-3… when taken. A concurrent insert of the same slug still
 * meets the unique index (409), so this only spares the common case.
 */
export async function uniqueSlug(db: Db, table: PgTable, column: PgColumn, base: string): Promise<string> {
  const [slug] = await uniqueSlugs(db, table, column, [base]);
  return slug;
}

/**
 * uniqueSlug of a batch of new rows: each base in order, none given twice. The bases are looked
 * up by the unique index; only those taken (or given twice) are searched for their numbered forms
 * (a scan).
 */
export async function uniqueSlugs(db: Db, table: PgTable, column: PgColumn, bases: readonly string[]): Promise<string[]> {
  const distinct = [...new Set(bases)];
  const select = (where: SQL) => db.select({ slug: column }).from(table).where(where) as unknown as Promise<{ slug: string }[]>;
  const found = await select(inArray(column, distinct));
  const twice = bases.filter((b, i) => bases.indexOf(b) !== i);
  const numberedOf = [...new Set([...found.map((r) => r.slug), ...twice])];
  const numbered =
    numberedOf.length === 0
      ? []
      : await select(sql`${column} like any(${sql.param(numberedOf.map((b) => `${b}-%`))}::text[])`);
  const taken = new Set([...found, ...numbered].map((r) => r.slug));
  return bases.map((base) => {
    let slug = base;
    for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
    taken.add(slug);
    return slug;
  });
}
