import { type TSchema, Type } from '@sinclair/typebox';
import { getTableName, or, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { queryRows } from '../db/client.ts';
import { AppError, type ErrorDetail } from '../http/errors.ts';
import { FieldError } from './fields.ts';
import type { LocaleRequest } from '../http/locale.ts';
import type { FieldDef, FieldInfo, FilterWhere, Resource, Settings, Values, WriteContext } from './types.ts';

// Translatable fields (docs/translations.md). A field declared `translatable` keeps its own value
// as the default locale's text and its other locales' texts in the resource's `translations`
// jsonb column, `{"el": {"name": "…", "slug": "…"}}`. A read in another locale renders
// `coalesce(translations -> 'el' ->> 'name', name)`: a missing translation falls back to the own
// value. Everything a feature sees follows from the declaration: the `translations` field of
// back-office answers and writes, the `missingTranslation` filter, filters matching any locale,
// sort and ILIKE search in the read's locale.

/** A locale code as the settings hold it. */
export const LOCALE_CODE = '^[a-z]{2}$';
const LOCALE = new RegExp(LOCALE_CODE);

/** Whether a code is shaped as the settings hold locales (a request may ask for anything). */
export function isLocaleCode(code: string | null): code is string {
  return code !== null && LOCALE.test(code);
}

/** A locale code as an SQL string literal (two lower-case letters, checked). */
function localeLiteral(code: string): SQL {
  if (!LOCALE.test(code)) throw new Error(`not a locale code: ${code}`);
  return sql.raw(`'${code}'`);
}

/** A field name as an SQL string literal (names come from definitions, never from a request). */
function nameLiteral(name: string): SQL {
  return sql.raw(`'${name.replace(/'/g, "''")}'`);
}

export function translatableFields(resource: Resource): FieldInfo[] {
  return resource.fields.filter((f) => f.translatable && f.column);
}

export function isTranslatable(resource: Resource): boolean {
  return resource.def.translations !== undefined;
}

function translationsColumn(resource: Resource): PgColumn {
  const column = resource.def.translations;
  if (!column) throw new Error(`${resource.name}: no translations column`);
  return column;
}

/** Whether a translatable field holds text (a name), not JSON (a product's options in a locale). */
function isText(f: FieldDef): boolean {
  return f.codec.output.type === 'string';
}

/** A translatable field's text in `locale`, its own value where there is none. */
export function translatedValue(resource: Resource, f: FieldInfo, locale: string): SQL {
  const column = translationsColumn(resource);
  const texts = sql`${column} -> ${localeLiteral(locale)}`;
  if (!isText(f)) return sql`coalesce(${texts} -> ${nameLiteral(f.name)}, ${f.column})`;
  return sql`coalesce(${texts} ->> ${nameLiteral(f.name)}, ${f.column})`;
}

/**
 * Equality on a translatable field matches its text in any locale (a product's slug in Greek finds
 * it as its English one does). The jsonpath condition is served by the column's GIN index.
 */
export function anyLocaleEquals(resource: Resource, f: FieldInfo, op: 'eq' | 'in', value: SQL): SQL {
  const column = translationsColumn(resource);
  if (op === 'eq') {
    const path = sql`('$.*.' || ${nameLiteral(f.name)} || ' == ' || to_json(${value}::text)::text)::jsonpath`;
    return sql`(${f.column} = ${value} or ${column} @@ ${path})`;
  }
  return sql`(${f.column} = any(${value}) or exists (select 1 from jsonb_each(${column}) t
    where t.value ->> ${nameLiteral(f.name)} = any(${value})))`;
}

/** The locale codes as an SQL text[] literal (checked codes). */
function localesArray(codes: readonly string[]): SQL {
  return sql`array[${sql.join([...codes.map(localeLiteral), sql`''`], sql`, `)}]::text[]`;
}

/**
 * Whether a row holds texts of a locale the shop does not serve (one removed from `locales`):
 * only such a row needs its search redone over its served texts (servedTranslations).
 */
export function holdsUnservedTexts(column: PgColumn, served: readonly string[]): SQL {
  return sql`(${column} - ${localesArray(served)}) <> '{}'::jsonb`;
}

/** A row's translations without the locales the shop does not serve (kept, not matched). */
export function servedTranslations(column: PgColumn, served: readonly string[]): SQL {
  return sql`(select coalesce(jsonb_object_agg(t.key, t.value), '{}'::jsonb) from jsonb_each(${column}) t
    where t.key = any(${localesArray(served)}))`;
}

/** The schema of one locale's texts: each translatable field, optional, null removing it. */
function localeTexts(fields: readonly FieldDef[], names: readonly string[], input: boolean): TSchema {
  const props: Record<string, TSchema> = {};
  fields.forEach((f, i) => {
    const schema = input ? f.codec.input : f.codec.output;
    props[names[i] as string] = Type.Optional(
      input ? Type.Unsafe({ ...schema, type: [...new Set([schema.type, 'null'].flat())] }) : schema,
    );
  });
  return Type.Object(props, { additionalProperties: false });
}

/** The `translations` field a resource with translatable fields gets: back-office reads and writes. */
export function translationsField(column: PgColumn, fields: Record<string, FieldDef>): FieldDef {
  const entries = Object.entries(fields).filter(([, f]) => f.translatable);
  const names = entries.map(([name]) => name);
  const defs = entries.map(([, f]) => f);
  const map = (texts: TSchema) => Type.Record(Type.String({ pattern: LOCALE_CODE }), texts, { maxProperties: 20 });
  const output = map(localeTexts(defs, names, false));
  const input = map(localeTexts(defs, names, true));
  return {
    codec: {
      output,
      input,
      parse: (text) => text,
      rangeable: false,
    },
    column,
    read: 'backend',
    nullable: false,
    create: 'optional',
    update: true,
    writeScope: 'backend',
    sort: false,
    search: false,
    description:
      'Texts of the translatable fields per locale (other than the default); null removes one. A field without one reads its own value.',
  };
}

/** `missingTranslation=el`: rows where a translatable field with a value of its own has no text in el. */
export function missingTranslationFilter(column: PgColumn, fields: Record<string, FieldDef>): FieldDef {
  const own = Object.entries(fields).filter(([, f]) => f.translatable && f.column);
  const missing = (code: SQL) =>
    or(
      ...own.map(([name, f]) =>
        isText(f)
          ? sql`(coalesce(${f.column}, '') <> '' and coalesce(${column} -> ${code} ->> ${nameLiteral(name)}, '') = '')`
          : sql`(coalesce(${f.column}, '[]'::jsonb) not in ('[]'::jsonb, '{}'::jsonb) and ${column} -> ${code} -> ${nameLiteral(name)} is null)`,
      ),
    ) ?? sql`false`;
  const where: FilterWhere = (_ctx, op, value) =>
    op === 'eq'
      ? sql`(${missing(sql`${value}::text`)})`
      : sql`exists (select 1 from unnest(${value}::text[]) as l(code) where ${missing(sql`l.code`)})`;
  const schema = Type.String();
  return {
    codec: {
      output: schema,
      input: schema,
      parse: (text) => {
        if (!LOCALE.test(text)) throw new FieldError('must be a locale code');
        return text;
      },
      rangeable: false,
    },
    read: 'backend',
    nullable: false,
    update: false,
    writeScope: 'backend',
    filter: 'eq',
    sort: false,
    search: false,
    description: 'Rows missing a text of this locale in a translatable field',
    where,
    filterOnly: true,
  };
}

/** The settings a read of a translatable resource settles its locale from. */
export const LOCALE_SETTINGS = ['locales', 'default_locale'] as const;

/** The locales a shop serves, from the settings `locales` and `default_locale`. */
export interface ServedLocales {
  enabled: string[];
  default: string;
}

export function servedLocales(settings: Settings): ServedLocales {
  const fallback = typeof settings.default_locale === 'string' ? settings.default_locale : 'en';
  const list = Array.isArray(settings.locales) ? settings.locales.filter((l) => typeof l === 'string') : [];
  return { enabled: list.includes(fallback) ? list : [fallback, ...list], default: fallback };
}

/**
 * The enabled locale a request asks for (`?locale=`, else the best of Accept-Language), or null
 * when it asks for none the shop serves: a write that keeps a locale (an order) then takes another.
 */
export function preferredLocale(asked: LocaleRequest | undefined, settings: Settings): string | null {
  const { enabled } = servedLocales(settings);
  const wanted = asked ? [...(asked.explicit ? [asked.explicit] : []), ...asked.accepted] : [];
  return wanted.find((code) => enabled.includes(code)) ?? null;
}

/** Refuses translations of a locale that is not enabled, or of the default locale (its text is the field). */
function checkLocales(texts: Record<string, unknown>, served: ServedLocales): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const code of Object.keys(texts)) {
    if (code === served.default)
      details.push({ field: `translations.${code}`, message: `${code} is the default locale: write the fields themselves` });
    else if (!served.enabled.includes(code))
      details.push({ field: `translations.${code}`, message: `${code} is not an enabled locale` });
  }
  return details;
}

type Texts = Record<string, Record<string, unknown>>;

/** The stored value of a write's translations: merged into what the row holds; null and '' remove a text. */
export function translationsSql(resource: Resource, texts: Texts, op: 'create' | 'update'): SQL {
  const column = translationsColumn(resource);
  const patch = Object.entries(texts).map(([code, fields]) => {
    const current = op === 'update' ? sql`coalesce(${column} -> ${localeLiteral(code)}, '{}'::jsonb)` : sql`'{}'::jsonb`;
    const cleaned = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v === '' ? null : v]));
    return sql`${localeLiteral(code)}::text, ${current} || ${JSON.stringify(cleaned)}::jsonb`;
  });
  const base = op === 'update' ? sql`coalesce(${column}, '{}'::jsonb)` : sql`'{}'::jsonb`;
  if (patch.length === 0) return base;
  // A locale left without a text is dropped with its last one.
  const merged = sql`jsonb_strip_nulls(${base} || jsonb_build_object(${sql.join(patch, sql`, `)}))`;
  return sql`(select coalesce(jsonb_object_agg(t.key, t.value), '{}'::jsonb) from jsonb_each(${merged}) t
    where t.value <> '{}'::jsonb)`;
}

/**
 * Checks a write's translations inside its transaction: enabled locales only, and a unique field's
 * text unused by another row in that locale (or as another row's own value): 409 naming it. Writers
 * of one table's translations take turns (a transaction lock), so two cannot pass together.
 */
export async function checkTranslations(ctx: WriteContext, resource: Resource, values: Values, id?: number) {
  await checkTranslationsOf(ctx, resource, [{ values, id }]);
}

/** checkTranslations of a batch of writes: one lock, and a unique text used twice in the batch is refused too. */
export async function checkTranslationsOf(
  ctx: WriteContext,
  resource: Resource,
  writes: readonly { values: Values; id?: number }[],
) {
  const given = writes.filter((w) => w.values.translations);
  if (given.length === 0) return;
  const served = servedLocales(await ctx.settings());
  for (const { values } of given) {
    const details = checkLocales(values.translations as Texts, served);
    if (details.length)
      throw new AppError('VALIDATION_FAILED', details.map((d) => `${d.field} ${d.message}`).join('; '), details);
  }
  const unique = translatableFields(resource).filter((f) => f.unique);
  if (unique.length === 0) return;
  const table = getTableName(resource.def.table);
  await queryRows(ctx.db, sql`select pg_advisory_xact_lock(hashtext(${`translations:${table}`}))`);
  const seen = new Set<string>();
  for (const { values, id } of given) {
    for (const [code, fields] of Object.entries(values.translations as Texts)) {
      for (const f of unique) {
        const text = fields[f.name];
        if (typeof text !== 'string' || text === '') continue;
        const other = id === undefined ? sql`true` : sql`${resource.idColumn} <> ${id}`;
        const key = JSON.stringify([code, f.name, text]);
        const taken =
          seen.has(key) ||
          (
            await queryRows(
              ctx.db,
              sql`select 1 from ${resource.def.table} where ${other} and (${translatedValue(resource, f, code)} = ${text} or ${f.column} = ${text}) limit 1`,
            )
          ).length > 0;
        seen.add(key);
        if (taken) {
          const field = `translations.${code}.${f.name}`;
          throw new AppError('CONFLICT', `${field} is already used`, [{ field, message: 'is already used' }]);
        }
      }
    }
  }
}
