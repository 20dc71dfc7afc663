import { sql } from 'drizzle-orm';
import { filterParam, parseBoolean, type FilterWhere } from '../../resources/index.ts';
import { categories, products, productVariants } from './catalog.tables.ts';
import { subtreeIds } from './category-tree.ts';
import { catalogPriceSql } from './sale-price.ts';

// The product list's filters beyond `column = value` (docs/discovery.md); declared on the
// product resource, so the query schema, the statement shapes and the cached totals follow.

/** categoryId=N: products of N and of every category below it. */
export const inCategorySubtree: FilterWhere = (_ctx, op, value) =>
  sql`${products.categoryId} = any(${subtreeIds(op, value)})`;

/** Cached totals filtered by category follow the category table's version (a moved subtree). */
export const categoryFilter = { where: inCategorySubtree, dependsOn: [categories] };

/** onSale=true: a reference price (the lowest of the 30 days before, docs/resources.md) above the price, or a running catalog promotion. */
export const onSaleParam = filterParam({
  description: 'true: the price is below its reference price (on sale); false: it is not',
  parse: parseBoolean,
  // Reference prices follow the variants' price history, not only product writes: always counted.
  volatile: true,
  where: (_ctx, op, value) => {
    const onSale = sql`(coalesce(${products.referencePrice} > ${products.price}, false)
      or ${catalogPriceSql(products.price)} < ${products.price})`;
    return op === 'eq' ? sql`${onSale} = ${value}` : sql`${onSale} = any(${value})`;
  },
});

/**
 * option.<Name>=a,b: products with an active variant whose option <Name> is one of the values
 * (product_variant_product_idx per product).
 */
export const optionParam = filterParam({
  description: 'option.<Name>=a,b: an active variant has one of these values of option <Name>',
  prefixed: true,
  parse: (text) => text,
  // Variant writes do not bump the product's version: totals filtered by options are counted.
  volatile: true,
  where: (_ctx, op, value, arg) => {
    const matches = op === 'eq' ? sql`= ${value}::text` : sql`= any(${value}::text[])`;
    return sql`exists (select 1 from ${productVariants} v where v.product_id = ${products.id} and v.active
      and v.options ->> ${arg}::text ${matches})`;
  },
});
