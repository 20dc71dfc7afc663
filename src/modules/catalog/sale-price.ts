import { type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { ReadContext } from '../../resources/index.ts';
import { products, productVariants } from './catalog.tables.ts';
import { catalogSaleValues, type SaleParts, salePartsIn } from './catalog-sales.ts';

// Catalog promotions (docs/promotions.md) lower the price shoppers see and pay while they run. The
// statement that reads a price applies them itself (no query of its own, a sale starts and ends at
// its own times with no write): it reads the running ones from catalog_sale once, as an uncorrelated
// subquery PostgreSQL evaluates once per statement, and the SQL function sale_price
// (src/db/functions/sale_price.sql) applies them to each price. A product in no category an active
// sale covers (catalog_sale_cover, read once like the sales) keeps its stored price without the
// call: a plpgsql call over the running sales costs about 4 µs, and a page has 60 prices. The back
// office reads the stored price (what it edits).
//
// A product read (list, item, show) takes the running sales as parameters instead, from the copy
// the service keeps (catalog-sales.ts saleParameters): for sales that name categories only, each
// price is integer arithmetic on two numbers of its category, and only other sales call
// sale_price (docs/performance.md, "Kept copies").

/** The catalog sales running now (an array of catalog_sale rows, each with its categories expanded). */
const runningSales = sql`(select coalesce(array_agg(s), '{}') from catalog_sale s
  where (s.starts_at is null or s.starts_at <= now()) and (s.ends_at is null or s.ends_at > now()))`;

/** The categories an active catalog sale may cover (null: any product may be). */
const coveredCategories = sql`(select c.category_ids from catalog_sale_cover c)::integer[]`;

type ProductColumns = { id: SQL | PgColumn; categoryId: SQL | PgColumn; brand: SQL | PgColumn };

/**
 * A price of the product `product` (a product row's columns) under the running sales. In a read's
 * page statement the sales and the covered categories are read once for the statement (`shared`):
 * as sub-selects of each price, every execution set up two of them per price (the list: 8).
 */
function salePriceOf(price: SQL | PgColumn, product: ProductColumns, ctx?: ReadContext): SQL<number> {
  if (ctx?.keptValues === catalogSaleValues) return keptSalePrice(price, product, keptSalesOf(ctx));
  const sales = ctx?.shared?.('running_sales', runningSales) ?? runningSales;
  const covered = ctx?.shared?.('covered_categories', coveredCategories) ?? coveredCategories;
  // Null (no cover row, a sale for any product, a product without a category) calls sale_price.
  return sql<number>`case when coalesce(${product.categoryId} = any(${covered}), true)
    then sale_price(${price}, ${product.id}, ${product.categoryId}, ${product.brand}, ${sales})
    else ${price} end`;
}

/** The names of the parameters (catalog-sales.ts SaleParameters). */
type SaleParameter = 'saleCategoryOffset' | 'salePercents' | 'saleAmounts' | 'saleOthers';

/** The statement's parameters of the running sales (catalog-sales.ts SaleParameters), as SQL values. */
export interface KeptSales {
  /** Absent when no sale by category runs. */
  byCategory?: { offset: SQL; percents: SQL; amounts: SQL };
  /** The other sales, catalog_sale[]; absent when none runs. */
  others?: SQL;
}

/**
 * The sales' parameters as SQL values, of the parts the statement prices: `param` answers each (a
 * placeholder; a value in tests), `share` makes it a value the statement computes once.
 */
export function keptSalesSql(
  param: (name: SaleParameter) => unknown,
  parts: SaleParts,
  share: (name: string, value: SQL) => SQL = (_, value) => value,
): KeptSales {
  // Shared values become columns of the statement: only those of the parts it prices.
  const byCategory = () => ({
    offset: share('sale_category_offset', sql`${param('saleCategoryOffset')}::integer`),
    percents: share('sale_percents', sql`${param('salePercents')}::integer[]`),
    amounts: share('sale_amounts', sql`${param('saleAmounts')}::integer[]`),
  });
  const others = () =>
    share(
      'sale_others',
      sql`(select coalesce(array_agg(s), '{}') from json_populate_recordset(null::catalog_sale, ${param('saleOthers')}::json) s)`,
    );
  return {
    byCategory: parts.categories ? byCategory() : undefined,
    others: parts.others ? others() : undefined,
  };
}

function keptSalesOf(ctx: ReadContext): KeptSales {
  return keptSalesSql(
    (name) => sql.placeholder(name),
    salePartsIn(ctx.keptVariant),
    (name, value) => ctx.shared?.(name, value) ?? value,
  );
}

/**
 * A price under the running sales given as parameters: its category's largest percent off (rounded
 * half up to the cent, in integers: a price is never negative) or largest amount off (at most the
 * price), whichever is more, read by position (none outside the terms, none without a category);
 * then the other sales through sale_price. Equal to sale_price over all of them
 * (test/unit/catalog-sale.test.ts). Each price of a page evaluates it: it is kept short, and
 * without running sales it is the stored price.
 */
export function keptSalePrice(price: SQL | PgColumn, product: ProductColumns, sales: KeptSales): SQL<number> {
  let priced = sql<number>`${price}`;
  const terms = sales.byCategory;
  if (terms) {
    const of = (t: SQL) => sql`coalesce((${t})[${product.categoryId} - ${terms.offset}], 0)`;
    priced = sql`(${price} - greatest((${price}::bigint * ${of(terms.percents)} + 5000) / 10000,
      least(${price}, ${of(terms.amounts)})))::integer`;
  }
  if (sales.others === undefined) return priced;
  return sql`least(${priced},
    sale_price(${price}, ${product.id}, ${product.categoryId}, ${product.brand}, ${sales.others}))`;
}

/** A product's price (a stored price of it, or of one of its variants) as a running sale makes it. */
export function catalogPriceSql(price: SQL | PgColumn, ctx?: ReadContext): SQL<number> {
  return salePriceOf(price, products, ctx);
}

/** A product field's price as the caller sees it: the sale price for shoppers, the stored one for the back office. */
export function shopperPrice(column: PgColumn, ctx: ReadContext): SQL {
  return ctx.scope === 'backend' ? sql`${column}` : catalogPriceSql(column, ctx);
}

/** A variant's own price (null: the product's) under a running sale, read from the variant's row. */
export function shopperVariantPrice(column: PgColumn, ctx: ReadContext): SQL {
  if (ctx.scope === 'backend') return sql`${column}`;
  const p = { id: sql`p.id`, categoryId: sql`p.category_id`, brand: sql`p.brand` };
  return sql`(select ${salePriceOf(column, p, ctx)} from product p where p.id = ${productVariants.productId})`;
}

/**
 * The Omnibus reference price while a sale runs: the lowest price before the reduction, that is the
 * regular price or its own reference (the lowest of the 30 days before it took effect), whichever
 * is lower; without a sale the stored reference as before.
 */
export function shopperReferencePrice(column: PgColumn, ctx: ReadContext): SQL {
  if (ctx.scope === 'backend') return sql`${column}`;
  // A reference at or below the price is the answer either way (least(price, reference)): no
  // second sale price a row then.
  return sql`case when ${column} <= ${products.price} then ${column}
    when ${catalogPriceSql(products.price, ctx)} < ${products.price} then least(${products.price}, ${column})
    else ${column} end`;
}

/** The sale price of a product now, null without a running sale (the back office's product screen). */
export const salePriceSql = sql<number | null>`nullif(${catalogPriceSql(products.price)}, ${products.price})`;

/** When the next catalog promotion starts or ends (JSON text of the instant, null when none will): a cache of sale prices lasts until then. */
export const nextSaleChangeJson = sql<string | null>`(select to_json(min(t)) from (
    select p.starts_at as t from promotion p where p.kind = 'catalog' and p.active and p.starts_at > now()
    union all select p.ends_at from promotion p where p.kind = 'catalog' and p.active and p.ends_at > now()) b)`;
