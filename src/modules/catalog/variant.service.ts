import { AppError } from '../../http/errors.ts';
import type { ResourceHooks, Values } from '../../resources/index.ts';
import { chosenOptions, optionsProblem } from './options.ts';
import { recordVariantPrice } from './product.service.ts';
import { productOptionsAndPrice, variantPricing } from './variant.repo.ts';

/**
 * Variant writes: options checked against the product's declared ones (a product without options
 * keeps its one plain variant), the effective price recorded for Omnibus.
 */
export const variantHooks: ResourceHooks = {
  async beforeWrite(ctx, values: Values, op, id) {
    if (op === 'create') {
      const product = await productOptionsAndPrice(ctx.db, Number(values.productId));
      if (!product) {
        throw new AppError('UNPROCESSABLE', `product ${values.productId} does not exist`, [
          { field: 'productId', message: 'does not exist' },
        ]);
      }
      if (product.options.length === 0) {
        throw new AppError('UNPROCESSABLE', 'a product without options has exactly one variant', [
          { field: 'productId', message: 'declare options on the product before adding variants' },
        ]);
      }
      values.options ??= {};
      const problem = optionsProblem(product.options, chosenOptions(values.options));
      if (problem)
        throw new AppError('VALIDATION_FAILED', `options ${problem}`, [
          { field: 'options', message: problem },
        ]);
      return;
    }
    if (values.options === undefined || id === undefined) return;
    const current = await variantPricing(ctx.db, id);
    if (!current) return; // the update answers 404
    const problem = optionsProblem(current.options, chosenOptions(values.options));
    if (problem)
      throw new AppError('VALIDATION_FAILED', `options ${problem}`, [{ field: 'options', message: problem }]);
  },
  async afterWrite(ctx, id, values, op) {
    if (op === 'update' && !('price' in values)) return;
    const pricing = await variantPricing(ctx.db, id);
    if (!pricing) return;
    const currency = String((await ctx.settings()).currency);
    await recordVariantPrice(ctx.db, pricing.productId, id, pricing.price ?? pricing.productPrice, {
      sku: pricing.sku,
      currency,
    });
  },
};
