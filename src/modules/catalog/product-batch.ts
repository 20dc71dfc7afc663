import { inArray } from 'drizzle-orm';
import { AppError } from '../../http/errors.ts';
import { fromCents } from '../../lib/money.ts';
import {
  auditCreates,
  checkTranslationsOf,
  createColumns,
  createValues,
  type Settings,
  type Values,
  type WriteContext,
  type WriteRequestContext,
} from '../../resources/index.ts';
import { recordEvents } from '../outbox/outbox.ts';
import { products, productVariants } from './catalog.tables.ts';
import { declaredOptions, declaredOptionsProblem } from './options.ts';
import { checkTranslatedOptions } from './option-translations.ts';
import { insertPriceHistories } from './price-history.repo.ts';
import { newVariants } from './product.service.ts';
import { productResource } from './product.resource.ts';
import { slugify, uniqueSlugs } from './slug.ts';
import { insertVariantsOf, type NewVariant } from './variant.repo.ts';

// New products written as a batch: what createEntity and the product's hooks do for each (the
// same conversion and 400s, slugs, VAT rate, variants, price history, product.price_changed and
// the audit entry) done for all of them with one statement per table. The triggers (plain
// variant, stock and price roll-ups, table versions) fire as for single writes.

/**
 * Creates the products of these create bodies (validated by the create schema; without uploaded
 * `media`, which only single writes resolve) in the caller's transaction `rctx.db`, answering
 * their ids in order. A refusal is an AppError about the batch as a whole: the caller that needs
 * to know whose it is writes the bodies one by one.
 */
export async function createProducts(rctx: WriteRequestContext, bodies: readonly Values[]): Promise<number[]> {
  if (bodies.length === 0) return [];
  let settings: Promise<Settings> | undefined;
  const ctx: WriteContext = { ...rctx, settings: () => (settings ??= rctx.settingsSource.read(rctx.db)) };
  const { default_vat_rate: vatRate, currency } = await ctx.settings();
  const all = bodies.map((body) => {
    if (body.media !== undefined) throw new AppError('VALIDATION_FAILED', 'media are written one product at a time');
    return createValues(rctx, productResource, body);
  });
  const variants: (NewVariant[] | undefined)[] = [];
  for (const values of all) {
    const problem = declaredOptionsProblem(declaredOptions(values.options));
    if (problem) throw new AppError('VALIDATION_FAILED', `options ${problem}`, [{ field: 'options', message: problem }]);
    variants.push(newVariants(declaredOptions(values.options), values));
    values.vatRate ??= vatRate;
    // A new product has no stored translations: this checks the written ones without reading.
    await checkTranslatedOptions(rctx.db, values, undefined);
  }
  await checkTranslationsOf(ctx, productResource, all.map((values) => ({ values })));
  const unslugged = all.filter((v) => v.slug === undefined);
  const slugs = await uniqueSlugs(rctx.db, products, products.slug, unslugged.map((v) => slugify(String(v.name))));
  unslugged.forEach((values, i) => {
    values.slug = slugs[i];
  });

  const inserted = await rctx.db
    .insert(products)
    .values(all.map((values) => createColumns(productResource, values)) as (typeof products.$inferInsert)[])
    .returning({ id: products.id, sku: products.sku });
  const idOf = new Map(inserted.map((r) => [r.sku, r.id]));
  const ids = all.map((values) => Number(idOf.get(String(values.sku))));
  await insertVariantsOf(
    rctx.db,
    ids.flatMap((productId, i) => (variants[i] ? [{ productId, variants: variants[i] }] : [])),
  );

  // Every new price has its history entry (the product's, each variant's effective one) and the
  // product's product.price_changed event; nothing was recorded before, so no reference price.
  const priceOf = new Map(ids.map((id, i) => [id, Number(all[i].price)]));
  const made = await rctx.db
    .select({ id: productVariants.id, productId: productVariants.productId, price: productVariants.price })
    .from(productVariants)
    .where(inArray(productVariants.productId, ids));
  await insertPriceHistories(rctx.db, [
    ...ids.map((productId) => ({ productId, price: Number(priceOf.get(productId)) })),
    ...made.map((v) => ({ productId: v.productId, variantId: v.id, price: v.price ?? Number(priceOf.get(v.productId)) })),
  ]);
  await recordEvents(
    rctx.db,
    'product.price_changed',
    ids.map((productId, i) => ({
      productId,
      variantId: null,
      sku: String(all[i].sku),
      currency: String(currency),
      oldPrice: null,
      newPrice: fromCents(Number(all[i].price)),
      referencePrice: null,
    })),
  );
  await auditCreates(rctx, productResource, ids.map((id, i) => ({ id, values: all[i] })));
  return ids;
}
