import { type SQL, sql } from 'drizzle-orm';
import { holdsUnservedTexts, type SearchDef, servedTranslations } from '../../resources/index.ts';
import { products } from './catalog.tables.ts';

// Product search (docs/discovery.md): every word of q must match product.search_text (name, brand,
// sku and description, lower-cased and accent-folded by the database), in any order. A word
// matches as a substring (`like`, GIN trigram index) or, a word of five letters or more, by pg_trgm word
// similarity (`%>`, the same index; threshold in src/db/client.ts), which tolerates one typo.
// Results rank by where the words are found: the name (in the read's locale) first, then anywhere,
// typos last. search_text holds the translated texts too, so q matches in every locale the shop
// serves: a row that also holds texts of a locale removed from `locales` is matched again over its
// served texts only (a recheck of the rows the index found, none in a shop serving all it holds).

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

/** Letters NFD does not take apart that unaccent (the database's folding) spells out. */
const SPELLED_OUT: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ħ: 'h',
  ı: 'i',
};

/**
 * q in lower case without accents, as search_text holds its text (lower, then unaccent): folded
 * here, so the statement compares search_text with plain values, which keeps the trigram index
 * usable in a generic plan and folds nothing per row (docs/discovery.md).
 */
export function foldForSearch(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{Mn}/gu, '')
    .replace(/[ßæœøłđðþħı]/g, (c) => SPELLED_OUT[c])
    .normalize('NFC');
}

/**
 * A search word as an SQL string literal. Search statements carry q as literals, not parameters:
 * planned with the words themselves, PostgreSQL reads the trigram index for a selective word and
 * the table for one most products hold (a generic plan cannot tell them apart). They run unnamed
 * (`once`), so no statement is kept per text of q (docs/discovery.md).
 */
function literal(text: string): SQL {
  return sql.raw(`'${text.replace(/\0/g, '').replace(/'/g, "''")}'`);
}

interface Parsed {
  words: string[];
}

function wordsOf(shape: string): string[] {
  return (JSON.parse(shape) as Parsed).words;
}

/** One condition per word over `text`: as written (`like`), or for a word that may carry a typo, also near it (`%>`). */
function wordsMatch(shape: string, text: SQL): SQL {
  const conditions = wordsOf(shape).map((word) => {
    const like = sql`${text} like ${literal(likePattern(word))}`;
    if (!mayCarryTypo(word)) return like;
    return sql`(${like} or ${text} %> ${literal(word)})`;
  });
  return sql.join(conditions, sql` and `);
}

/** search_text's expression (catalog.tables.ts) over the texts of the served locales only. */
function servedSearchText(served: readonly string[]): SQL {
  const p = products;
  const translated = sql`shop_translated_text(${servedTranslations(p.translations, served)})`;
  return sql`shop_unaccent(lower(${p.name} || ' ' || coalesce(${p.brand}, '') || ' ' || ${p.sku} || ' ' || ${p.description} || ' ' || ${translated}))`;
}

/** Every word in search_text (the trigram index), and for a row holding unserved texts, in its served ones. */
function where(shape: string, served: readonly string[] | null): SQL {
  const indexed = wordsMatch(shape, sql`${products.searchText}`);
  if (served === null) return indexed;
  const recheck = wordsMatch(shape, servedSearchText(served));
  return sql`(${indexed} and (not ${holdsUnservedTexts(products.translations, served)} or (${recheck})))`;
}

/**
 * Relevance from substring positions (cheap enough to rank thousands of matches per request): a
 * word scores 3 when the name holds it (the start of search_text, so no row is folded again) and
 * 1 when only the rest does; a word found only through its typo scores 0. q found as a phrase
 * adds 1, and a shorter name wins a tie.
 */
function rank(shape: string, translated: (field: string) => SQL | undefined): SQL {
  const words = wordsOf(shape);
  const text = products.searchText;
  // In another locale than the default the name read is the translated one, folded here (only the
  // matching rows are ranked); the default name is the start of search_text.
  const localName = translated('name');
  const folded = localName && sql`shop_unaccent(lower(${localName}))`;
  const terms = words.map((word) => {
    const at = sql`strpos(${text}, ${literal(word)})`;
    const inName = folded
      ? sql`strpos(${folded}, ${literal(word)}) > 0`
      : sql`${at} <= length(${products.name})`;
    return sql`(case when ${at} = 0 then 0 when ${inName} then 3 else 1 end)`;
  });
  const phrase = sql`(strpos(${text}, ${literal(words.join(' '))}) > 0)::int`;
  const name = localName ?? products.name;
  return sql`(${sql.join([...terms, phrase], sql` + `)} - length(${name}) / 100000.0)`;
}

export const productSearch: SearchDef = {
  parse(q) {
    const words = searchWords(foldForSearch(q));
    return { shape: JSON.stringify({ words } satisfies Parsed), values: {}, once: true };
  },
  where,
  rank,
};
