import { AppError } from '../../http/errors.ts';
import type { ResourceHooks } from '../../resources/index.ts';
import { categories } from './catalog.tables.ts';
import { ancestorIds } from './category.repo.ts';
import { slugify, uniqueSlug } from './slug.ts';

/** Category writes: slug from the name; a category never becomes its own ancestor. */
export const categoryHooks: ResourceHooks = {
  async beforeWrite(ctx, values, op, id) {
    if (op === 'create' && values.slug === undefined) {
      values.slug = await uniqueSlug(ctx.db, categories, categories.slug, slugify(String(values.name)));
    }
    const parentId = values.parentId;
    if (op === 'update' && id !== undefined && typeof parentId === 'number') {
      if (parentId === id || (await ancestorIds(ctx.db, parentId)).includes(id)) {
        throw new AppError('UNPROCESSABLE', 'a category cannot be placed under itself', [
          { field: 'parentId', message: 'would make a cycle' },
        ]);
      }
    }
  },
};
