import { sql } from 'drizzle-orm';
import type { CatalogSale } from '../pricing/catalog-sale.ts';
import {
  derivedWhileSteady,
  KeptCopy,
  keptValues,
  runningAt,
  type Windowed,
  windowed,
  windowJson,
} from '../../resources/index.ts';

// The active catalog sales, kept between requests (docs/promotions.md, "Performance"): statements
// read the versions of promotion and category (catalog_sale is rebuilt by their triggers), and the
// sales are read again only when the copy kept here is of others; which run is judged against the
// reader's time (src/resources/windows.ts). The quote prices its lines with salePrice; the
// product reads take the running sales as parameters (saleParameters) and price in their statement.

interface SaleRow extends CatalogSale {
  /** Milliseconds since the epoch (null: open). */
  startsAt: number | null;
  endsAt: number | null;
}

const catalogSalesJson = sql`(select coalesce(json_agg(json_build_object('productIds', s.product_ids,
    'brands', s.brands, 'categoryIds', s.category_ids, 'percent', s.percent, 'value', s.value,
    ${windowJson(sql`s.starts_at`, sql`s.ends_at`)}) order by s.promotion_id), '[]') from catalog_sale s)`;

function keep(rows: SaleRow[]): Windowed<CatalogSale>[] {
  return rows.map(({ startsAt, endsAt, ...sale }) => windowed(sale, startsAt, endsAt));
}

export const activeCatalogSales = new KeptCopy(
  'catalogSales',
  ['category', 'promotion'],
  catalogSalesJson,
  keep,
);

/** The running sales as a product read's statement takes them (sale-price.ts keptSalePrice). */
export interface SaleParameters extends Record<string, unknown> {
  /** Category c's terms below are at position c − saleCategoryOffset (1-based). */
  saleCategoryOffset: number;
  /** By category, the largest percent off in hundredths of the sales naming categories only (0: none). */
  salePercents: number[];
  /** By category, the largest amount off in cents (0: none). */
  saleAmounts: number[];
  /** Every other running sale (products, brands, no category, finer values), as catalog_sale rows in JSON. */
  saleOthers: string;
}

const INT4_MAX = 2_147_483_647;
/** The most categories the terms span (ids from first to last): a sale that would widen them more joins the others. */
const MAX_SPAN = 4096;

/**
 * The sales running at `now` as parameters. A product's best price under sales that name only
 * categories needs two numbers of its category, read by position: the lowest price a percent gives
 * is the largest percent's, and an amount's the largest amount's.
 */
export function saleParameters(kept: readonly Windowed<CatalogSale>[], now: Date): SaleParameters {
  const byCategory: { sale: CatalogSale; hundredths: number }[] = [];
  const others: CatalogSale[] = [];
  let first = Infinity;
  let last = -Infinity;
  for (const sale of runningAt(kept, now)) {
    const hundredths = Math.round(sale.value * 100);
    const ids = sale.categoryIds ?? [];
    const from = Math.min(first, ...ids);
    const to = Math.max(last, ...ids);
    const termsOnly = sale.productIds === null && sale.brands === null && ids.length > 0;
    if (termsOnly && hundredths / 100 === sale.value && hundredths <= INT4_MAX && to - from < MAX_SPAN) {
      byCategory.push({ sale, hundredths });
      first = from;
      last = to;
    } else others.push(sale);
  }
  const span = byCategory.length === 0 ? 0 : last - first + 1;
  const percents = new Array<number>(span).fill(0);
  const amounts = new Array<number>(span).fill(0);
  for (const { sale, hundredths } of byCategory) {
    const terms = sale.percent ? percents : amounts;
    for (const c of sale.categoryIds ?? []) terms[c - first] = Math.max(terms[c - first], hundredths);
  }
  return {
    saleCategoryOffset: span === 0 ? 0 : first - 1,
    salePercents: percents,
    saleAmounts: amounts,
    saleOthers: JSON.stringify(
      others.map((sale, i) => ({
        promotion_id: i + 1,
        product_ids: sale.productIds,
        brands: sale.brands,
        category_ids: sale.categoryIds,
        percent: sale.percent,
        value: sale.value,
      })),
    ),
  };
}

/** Which kinds of running sales a product read's statement prices (the parts of its variant). */
export interface SaleParts {
  /** Sales by category terms (the arrays). */
  categories: boolean;
  /** Other sales, by sale_price. */
  others: boolean;
}

export function salePartsOf(values: SaleParameters): SaleParts {
  return { categories: values.salePercents.length > 0, others: values.saleOthers !== '[]' };
}

/** A statement variant's name of its parts (one prepared statement each; without sales, the stored prices). */
export function saleVariant(parts: SaleParts): string {
  return `${parts.categories ? 'categories' : ''}+${parts.others ? 'others' : ''}`;
}

/** The parts a variant's name stands for. */
export function salePartsIn(variant: string | undefined): SaleParts {
  const [categories, others] = (variant ?? '+').split('+');
  return { categories: categories === 'categories', others: others === 'others' };
}

/** The product reads' kept values: shoppers' prices under the running sales. */
export const catalogSaleValues = keptValues(
  activeCatalogSales,
  // Computed again only when the copy is replaced or a sale starts or ends.
  derivedWhileSteady((kept: readonly Windowed<CatalogSale>[], now: Date) => {
    const values = saleParameters(kept, now);
    return { values, variant: saleVariant(salePartsOf(values)) };
  }),
  ['public', 'customer'],
);
