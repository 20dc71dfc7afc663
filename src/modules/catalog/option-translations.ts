import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../http/errors.ts';
import type { Values } from '../../resources/index.ts';
import { type ProductOption, products } from './catalog.tables.ts';
import { declaredOptions, translatedOptionsProblem } from './options.ts';

// A product's options in another locale (docs/translations.md) are its own options, in the same
// order, named in that locale. A write that would leave a locale's options not fitting the own
// ones is refused, naming the locale: the translation of a variant's choice is read by position.

type Texts = Record<string, Record<string, unknown> | undefined>;

function stale(code: string, problem: string): AppError {
  const field = `translations.${code}.options`;
  return new AppError('VALIDATION_FAILED', `${field} ${problem}`, [{ field, message: problem }]);
}

/** Checks the options of every locale the product will hold against its own options after the write. */
export async function checkTranslatedOptions(db: Db, values: Values, id: number | undefined): Promise<void> {
  const written = (values.translations ?? {}) as Texts;
  const writesOptions = Object.values(written).some((t) => t?.options !== undefined);
  if (values.options === undefined && !writesOptions) return;
  const [stored] =
    id === undefined
      ? []
      : await db
          .select({ options: products.options, translations: products.translations })
          .from(products)
          .where(eq(products.id, id));
  const own: ProductOption[] = values.options === undefined ? (stored?.options ?? []) : declaredOptions(values.options);
  const kept = (stored?.translations ?? {}) as Texts;
  for (const code of new Set([...Object.keys(kept), ...Object.keys(written)])) {
    const given = written[code]?.options;
    const options = given === undefined ? kept[code]?.options : given;
    if (options === undefined || options === null) continue;
    const problem = translatedOptionsProblem(own, declaredOptions(options));
    if (problem) throw stale(code, given === undefined ? `no longer fit the options (${problem}): write them too` : problem);
  }
}
