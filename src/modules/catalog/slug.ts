import { like, or, eq } from 'drizzle-orm';
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
  const rows = (await db
    .select({ slug: column })
    .from(table)
    .where(or(eq(column, base), like(column, `${base}-%`)))) as { slug: string }[];
  const taken = new Set(rows.map((r) => r.slug));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}
