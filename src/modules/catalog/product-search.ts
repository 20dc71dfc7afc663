import { type SQL, sql } from 'drizzle-orm';
import type { SearchDef } from '../../resources/index.ts';
import { products } from './catalog.tables.ts';

// Product search (docs/catalog.md): every word of q must match product.search_text (name, brand,
// sku and description, lower-cased and accent-folded by the database), in any order. A word
// matches as a substring (`like`, GIN trigram index) or, a word of five letters or more, by pg_trgm word
// similarity (`%>`, the same index; threshold in src/db/client.ts), which tolerates one typo.
// Results rank by how well q matches the name first, then the whole text.

/** Words past this many are ignored: each one is a condition of its own. */
export const MAX_SEARCH_WORDS = 8;
/** Words this long or longer may carry a typo. */
export const TYPO_FROM_LETTERS = 5;

/** Escapes LIKE wildcards so a search for "50%" means the text "50%". */
function likePattern(word: string): string {
  return `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Only words of letters: pg_trgm reads digits and punctuation as words of their own, so a code
 * like `abc-16179` would be "near" every text holding 16179.
 */
function mayCarryTypo(word: string): boolean {
  return /^\p{L}+$/u.test(word) && [...word].length >= TYPO_FROM_LETTERS;
}

/** The words of q: split on white space, at most MAX_SEARCH_WORDS. */
export function searchWords(q: string): string[] {
  return q.split(/\s+/u).filter(Boolean).slice(0, MAX_SEARCH_WORDS);
}

/** Lower case and no accents, the same way search_text was made. */
function folded(value: SQL): SQL {
  return sql`shop_unaccent(lower(${value}))`;
}

/** One condition per word; the shape says which words may carry a typo ('f') and which must match as written ('x'). */
function where(shape: string): SQL {
  const words = [...shape].map((kind, i) => {
    const like = sql`${products.searchText} like ${folded(sql`${sql.placeholder(`ql${i}`)}::text`)}`;
    if (kind !== 'f') return like;
    const near = sql`${products.searchText} %> ${folded(sql`${sql.placeholder(`qw${i}`)}::text`)}`;
    return sql`(${like} or ${near})`;
  });
  return sql.join(words, sql` and `);
}

function rank(): SQL {
  const q = folded(sql`${sql.placeholder('qa')}::text`);
  return sql`(2 * word_similarity(${q}, ${folded(sql`${products.name}`)}) + word_similarity(${q}, ${products.searchText}))`;
}

export const productSearch: SearchDef = {
  parse(q) {
    const words = searchWords(q);
    const values: Record<string, unknown> = { qa: words.join(' ') };
    let shape = '';
    words.forEach((word, i) => {
      values[`ql${i}`] = likePattern(word);
      if (mayCarryTypo(word)) {
        values[`qw${i}`] = word;
        shape += 'f';
      } else shape += 'x';
    });
    return { shape, values };
  },
  where,
  rank,
};
