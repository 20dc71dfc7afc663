import type { ComponentChildren } from 'preact';
import type { Product } from '../catalog.ts';
import { formatPrice } from '../i18n.ts';
import { type ListingState, listingSearch, type PageSizes, type Sort } from '../listing.ts';
import type { PageContext } from '../types.ts';
import type { PriceLabels } from './price.tsx';
import { ProductGrid } from './product-card.tsx';

export interface Facets {
  brand: { value: string; count: number }[];
  price: { min: number | null; max: number | null };
  inStock: { count: number };
  options: Record<string, { value: string; count: number }[]>;
}

/**
 * A list of products with its filters (facets with their counts), sort, page size and pages: one
 * GET form, so it works without JavaScript; the listing script sends it on each change.
 */
export function ListingView(props: {
  ctx: PageContext;
  /** The page's path (with its locale), the form's action and the pager's base. */
  basePath: string;
  state: ListingState;
  sizes: PageSizes;
  defaultSort: Sort;
  sorts: Sort[];
  products: Product[];
  total: number;
  facets: Facets | undefined;
  labels: PriceLabels;
  /** Fields the form keeps (search's q). */
  hidden?: Record<string, string>;
  name?: (product: Product) => ComponentChildren;
}) {
  const { ctx, state, facets } = props;
  const { t } = ctx;
  const pages = Math.max(1, Math.ceil(props.total / state.limit));
  const sortLabel: Record<Sort, string> = {
    relevance: t.sortRelevance,
    newest: t.sortNewest,
    price: t.sortPriceAsc,
    '-price': t.sortPriceDesc,
    name: t.sortName,
  };
  return (
    <form class="listing" method="get" action={props.basePath} data-listing>
      {Object.entries(props.hidden ?? {}).map(([name, value]) => (
        <input type="hidden" name={name} value={value} />
      ))}
      <details class="facets" open data-filters>
        <summary>
          <h2>{t.filters}</h2>
        </summary>
        {facets && facets.brand.length > 0 && (
          <fieldset>
            <legend>{t.brand}</legend>
            {facets.brand.map((brand) => (
              <Check
                name="brand"
                value={brand.value}
                count={brand.count}
                checked={state.brands.includes(brand.value)}
              />
            ))}
          </fieldset>
        )}
        {facets &&
          Object.entries(facets.options).map(([option, values]) => (
            <fieldset>
              <legend>{option}</legend>
              {values.map((value) => (
                <Check
                  name={`option.${option}`}
                  value={value.value}
                  count={value.count}
                  checked={state.options[option]?.includes(value.value) ?? false}
                />
              ))}
            </fieldset>
          ))}
        <fieldset>
          <legend>{t.availability}</legend>
          <Check
            name="inStock"
            value="1"
            label={t.onlyInStock}
            count={facets?.inStock.count}
            checked={state.inStock}
          />
          <Check name="onSale" value="1" label={t.onSale} checked={state.onSale} />
        </fieldset>
        <fieldset class="price-range">
          <legend>{t.price}</legend>
          <label>
            min €
            <input
              type="number"
              name="min"
              min="0"
              step="0.01"
              inputMode="decimal"
              value={state.min ?? ''}
              placeholder={facets?.price.min != null ? String(Math.floor(facets.price.min)) : undefined}
            />
          </label>
          <label>
            max €
            <input
              type="number"
              name="max"
              min="0"
              step="0.01"
              inputMode="decimal"
              value={state.max ?? ''}
              placeholder={facets?.price.max != null ? String(Math.ceil(facets.price.max)) : undefined}
            />
          </label>
          {facets?.price.min != null && facets.price.max != null && (
            <p class="count">
              {formatPrice(facets.price.min, ctx.locale)} – {formatPrice(facets.price.max, ctx.locale)}
            </p>
          )}
        </fieldset>
        <p>
          <button type="submit">{t.apply}</button>{' '}
          <a href={`${props.basePath}${props.hidden?.q ? `?q=${encodeURIComponent(props.hidden.q)}` : ''}`}>
            {t.clearFilters}
          </a>
        </p>
      </details>
      <section class="results" aria-labelledby="results-heading">
        <div class="toolbar">
          <p id="results-heading" role="status">
            {t.products(props.total)}
          </p>
          <label>
            {t.sort}
            <select name="sort">
              {props.sorts.map((sort) => (
                <option value={sort} selected={sort === state.sort}>
                  {sortLabel[sort]}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t.perPage}
            <select name="limit">
              {props.sizes.perPageOptions.map((size) => (
                <option value={size} selected={size === state.limit}>
                  {size}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" class="secondary" data-apply>
            {t.apply}
          </button>
        </div>
        {props.products.length ? (
          <ProductGrid
            ctx={ctx}
            products={props.products}
            labels={props.labels}
            name={props.name}
            headingLevel={3}
          />
        ) : (
          <p>{t.noProducts}</p>
        )}
        {pages > 1 && (
          <Pager
            ctx={ctx}
            page={state.page}
            pages={pages}
            href={(page) =>
              `${props.basePath}${listingSearch({ ...state, page }, props.sizes, props.defaultSort, props.hidden)}`
            }
          />
        )}
      </section>
    </form>
  );
}

function Check(props: { name: string; value: string; label?: string; count?: number; checked: boolean }) {
  return (
    <label>
      <input type="checkbox" name={props.name} value={props.value} checked={props.checked} />
      <span>{props.label ?? props.value}</span>
      {props.count !== undefined && <span class="count">({props.count})</span>}
    </label>
  );
}

/** Previous, the pages around this one, the first and the last, next. */
function Pager(props: { ctx: PageContext; page: number; pages: number; href: (page: number) => string }) {
  const { ctx, page, pages } = props;
  const shown = [...new Set([1, page - 2, page - 1, page, page + 1, page + 2, pages])]
    .filter((n) => n >= 1 && n <= pages)
    .sort((a, b) => a - b);
  return (
    <nav class="pager" aria-label={ctx.t.pagination}>
      <ul>
        {page > 1 && (
          <li>
            <a href={props.href(page - 1)} rel="prev">
              {ctx.t.previous}
            </a>
          </li>
        )}
        {shown.map((n, i) => (
          <>
            {i > 0 && n - (shown[i - 1] ?? n) > 1 && <li aria-hidden="true">…</li>}
            <li>
              {n === page ? (
                <span aria-current="page">{n}</span>
              ) : (
                <a href={props.href(n)} aria-label={ctx.t.page(n, pages)}>
                  {n}
                </a>
              )}
            </li>
          </>
        ))}
        {page < pages && (
          <li>
            <a href={props.href(page + 1)} rel="next">
              {ctx.t.next}
            </a>
          </li>
        )}
      </ul>
    </nav>
  );
}
