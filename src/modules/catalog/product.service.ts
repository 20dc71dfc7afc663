import type { Db } from '../../db/client.ts';
import { fromCents } from '../../lib/money.ts';
import type { ResourceHooks, Values } from '../../resources/index.ts';
import { recordEvent } from '../events/outbox.ts';
import { products } from './catalog.tables.ts';
import {
  currentRecordedPrice,
  insertPriceHistory,
  lowestPriceInLast30Days,
  productSkuAndCurrency,
  setReferencePrice,
} from './price-history.repo.ts';
import { slugify, uniqueSlug } from './slug.ts';

/**
 * Records a price change (EU Omnibus) in the caller's transaction: a history entry valid from
 * now, the product's reference price (the lowest price in effect during the 30 days before
 * now, kept in a column so that lists need no extra query), and a product.price_changed event.
 * Nothing is recorded when the price did not change.
 */
export async function recordPriceChange(tx: Db, productId: number, newPrice: number): Promise<void> {
  const oldPrice = await currentRecordedPrice(tx, productId);
  if (oldPrice === newPrice) return;
  const referencePrice = oldPrice === null ? null : await lowestPriceInLast30Days(tx, productId);
  await insertPriceHistory(tx, productId, newPrice);
  await setReferencePrice(tx, productId, referencePrice);
  const product = await productSkuAndCurrency(tx, productId);
  await recordEvent(tx, 'product.price_changed', {
    productId,
    sku: product?.sku ?? null,
    currency: product?.currency ?? null,
    oldPrice: oldPrice === null ? null : fromCents(oldPrice),
    newPrice: fromCents(newPrice),
    referencePrice: referencePrice === null ? null : fromCents(referencePrice),
  });
}

/** Product writes: slug from the name, VAT rate and currency from the settings, price history. */
export const productHooks: ResourceHooks = {
  async beforeWrite(ctx, values: Values, op) {
    if (op !== 'create') return;
    if (values.slug === undefined) {
      values.slug = await uniqueSlug(ctx.db, products, products.slug, slugify(String(values.name)));
    }
    if (values.vatRate === undefined || values.currency === undefined) {
      const settings = await ctx.settings();
      values.vatRate ??= settings.default_vat_rate;
      values.currency ??= settings.currency;
    }
  },
  async afterWrite(ctx, id, values) {
    if (typeof values.price === 'number') await recordPriceChange(ctx.db, id, values.price);
  },
};
