import type { Db } from '../../db/client.ts';
import { AppError } from '../../http/errors.ts';
import { fromCents, toCents } from '../../lib/money.ts';
import type { ResourceHooks, Values, WriteContext } from '../../resources/index.ts';
import { resolveMedia } from '../media/media-field.ts';
import { recordEvent } from '../outbox/outbox.ts';
import { type ProductOption, products } from './catalog.tables.ts';
import {
  chosenOptions,
  declaredOptions,
  declaredOptionsProblem,
  duplicateCombination,
  optionsProblem,
} from './options.ts';
import {
  currentRecordedPrice,
  insertPriceHistory,
  lowestPriceInLast30Days,
  type PriceOwner,
  productSku,
  setReferencePrice,
} from './price-history.repo.ts';
import { checkTranslatedOptions } from './option-translations.ts';
import { slugify, uniqueSlug } from './slug.ts';
import { insertVariants, lockVariantsOf, type NewVariant, variantsOf } from './variant.repo.ts';

/**
 * Records a price change (EU Omnibus) in the caller's transaction: a history entry valid from
 * now and the owner's reference price (the lowest price in effect during the 30 days before now,
 * kept in a column so that lists need no extra query). Answers the reference price, or undefined
 * when the price did not change (nothing recorded).
 */
async function recordPrice(
  tx: Db,
  owner: PriceOwner,
  newPrice: number,
): Promise<{ oldPrice: number | null; referencePrice: number | null } | undefined> {
  const oldPrice = await currentRecordedPrice(tx, owner);
  if (oldPrice === newPrice) return undefined;
  const referencePrice = oldPrice === null ? null : await lowestPriceInLast30Days(tx, owner);
  await insertPriceHistory(tx, owner, newPrice);
  await setReferencePrice(tx, owner, referencePrice);
  return { oldPrice, referencePrice };
}

/** The product.price_changed event of a recorded change (docs/events.md); variantId null for the product's own price. */
async function priceChanged(
  tx: Db,
  owner: { productId: number; variantId: number | null; sku: string | null },
  change: { oldPrice: number | null; referencePrice: number | null },
  newPrice: number,
  currency: string,
): Promise<void> {
  await recordEvent(tx, 'product.price_changed', {
    ...owner,
    currency,
    oldPrice: change.oldPrice === null ? null : fromCents(change.oldPrice),
    newPrice: fromCents(newPrice),
    referencePrice: change.referencePrice === null ? null : fromCents(change.referencePrice),
  });
}

/** A product's own price change, with its product.price_changed event. */
export async function recordPriceChange(
  tx: Db,
  productId: number,
  newPrice: number,
  currency: string,
): Promise<void> {
  const change = await recordPrice(tx, { productId }, newPrice);
  if (!change) return;
  const sku = (await productSku(tx, productId)) ?? null;
  await priceChanged(tx, { productId, variantId: null, sku }, change, newPrice, currency);
}

/**
 * A variant's effective price (its own, else its product's) as its Omnibus history sees it. With
 * `event`, a change also raises product.price_changed for the variant (a write of the variant's own
 * price); a product's price change raises one event for the product, not one per variant following it.
 */
export async function recordVariantPrice(
  tx: Db,
  productId: number,
  variantId: number,
  effectivePrice: number,
  event?: { sku: string; currency: string },
): Promise<void> {
  const change = await recordPrice(tx, { productId, variantId }, effectivePrice);
  if (!change || !event) return;
  await priceChanged(tx, { productId, variantId, sku: event.sku }, change, effectivePrice, event.currency);
}

function invalid(field: string, message: string): AppError {
  return new AppError('VALIDATION_FAILED', `${field} ${message}`, [{ field, message }]);
}

function isValues(value: unknown): value is Values {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The variants a create body brings, from the check before the write to the insert after it. */
const variantsToCreate = new WeakMap<Values, NewVariant[]>();

/** The nested variants of a create body, checked against the declared options; prices in cents. */
export function newVariants(options: readonly ProductOption[], values: Values): NewVariant[] | undefined {
  const given = Array.isArray(values.variants) ? values.variants.filter(isValues) : undefined;
  if (options.length === 0) {
    if (given)
      throw invalid('variants', 'need options: a product without options has one variant, made with it');
    return undefined;
  }
  if (!given) throw invalid('variants', 'are required for a product with options');
  if (values.stockQty !== undefined)
    throw invalid('stockQty', 'is written on the variants of a product with options');
  const variants = given.map((v, i): NewVariant => {
    const opts = chosenOptions(v.options);
    const problem = optionsProblem(options, opts);
    if (problem) throw invalid(`variants.${i}.options`, problem);
    let price: number | null = null;
    if (typeof v.price === 'number') {
      try {
        price = toCents(v.price);
      } catch {
        throw invalid(`variants.${i}.price`, 'must be an amount with at most two decimals');
      }
    }
    return {
      sku: String(v.sku),
      options: opts,
      price,
      stockQty: typeof v.stockQty === 'number' ? v.stockQty : undefined,
      weightKg: typeof v.weightKg === 'number' ? v.weightKg : null,
      images: Array.isArray(v.images) ? v.images.map(String) : undefined,
      position: typeof v.position === 'number' ? v.position : undefined,
      active: typeof v.active === 'boolean' ? v.active : undefined,
    };
  });
  const twice = duplicateCombination(variants.map((v) => v.options));
  if (twice >= 0) throw invalid(`variants.${twice}.options`, 'repeat another variant’s options');
  return variants;
}

/**
 * The images of nested variants, resolved as a variant's own write resolves them (their assets
 * held until the product's write commits); `images` follows them unless the variant sets it.
 */
async function resolveVariantMedia(ctx: WriteContext, values: Values, variants: NewVariant[]) {
  const given = (values.variants as unknown[]).filter(isValues);
  for (const [i, variant] of variants.entries()) {
    const refs = await resolveMedia(ctx.db, given[i], `variants.${i}.media`);
    if (!refs) continue;
    variant.media = refs;
    variant.images ??= refs.map((r) => r.url);
  }
}

async function beforeCreate(ctx: WriteContext, values: Values): Promise<void> {
  if (values.slug === undefined) {
    values.slug = await uniqueSlug(ctx.db, products, products.slug, slugify(String(values.name)));
  }
  if (values.vatRate === undefined) values.vatRate = (await ctx.settings()).default_vat_rate;
  const options = declaredOptions(values.options);
  const problem = declaredOptionsProblem(options);
  if (problem) throw invalid('options', problem);
  const variants = newVariants(options, values);
  if (!variants) return;
  await resolveVariantMedia(ctx, values, variants);
  variantsToCreate.set(values, variants);
}

/**
 * Stock, options and price of an existing product touch its variants: they are locked first (the
 * order checkout locks in: variant, then product), then checked.
 */
async function beforeUpdate(ctx: WriteContext, values: Values, id: number): Promise<void> {
  // A new price rewrites the variants' reference prices after the product row: lock them first too.
  if (values.stockQty === undefined && values.options === undefined && values.price === undefined) return;
  const variants = await lockVariantsOf(ctx.db, id);
  if (values.stockQty !== undefined && variants.length !== 1) {
    throw invalid('stockQty', 'is written on the variants of a product with several');
  }
  if (values.options !== undefined) {
    const options = declaredOptions(values.options);
    const declared = declaredOptionsProblem(options);
    if (declared) throw invalid('options', declared);
    const plain =
      options.length === 0 && variants.length === 1 && Object.keys(variants[0].options).length === 0;
    for (const v of plain ? [] : variants) {
      const problem = optionsProblem(options, v.options);
      if (problem) throw invalid('options', `do not fit variant ${v.sku}: it ${problem}`);
    }
  }
}

/** Product writes: slug, VAT rate, variants and options, price history (product and variants). */
export const productHooks: ResourceHooks = {
  async beforeWrite(ctx, values: Values, op, id) {
    if (op === 'create') await beforeCreate(ctx, values);
    else if (id !== undefined) await beforeUpdate(ctx, values, id);
    await checkTranslatedOptions(ctx.db, values, id);
  },
  async afterWrite(ctx, id, values, op) {
    const variants = op === 'create' ? variantsToCreate.get(values) : undefined;
    if (variants) await insertVariants(ctx.db, id, variants);
    if (typeof values.price !== 'number') return;
    await recordPriceChange(ctx.db, id, values.price, String((await ctx.settings()).currency));
    // Every variant's effective price has a history of its own (Omnibus per variant).
    for (const v of await variantsOf(ctx.db, id)) {
      if (v.price === null) await recordVariantPrice(ctx.db, id, v.id, values.price);
      else if (op === 'create') await recordVariantPrice(ctx.db, id, v.id, v.price);
    }
  },
};
