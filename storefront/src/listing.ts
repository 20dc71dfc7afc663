// What a product list page (category, search) reads from its query string, and how it asks the API.
// Filters are plain query parameters, so a page is a link: shareable, bookmarkable, crawlable.
//
//   brand=a&brand=b        any of these brands          → brand=a,b
//   option.Size=M          any of these option values   → option.Size=M (same name)
//   inStock=1, onSale=1    only those                   → inStock=true, onSale=true
//   min=10&max=50          price range, in euros        → price[gte]=10, price[lte]=50
//   sort=price             relevance|newest|price|-price|name
//   page=2&limit=48        paging, limit one of storefront-config's sizes

export const SORTS = ['relevance', 'newest', 'price', '-price', 'name'] as const;
export type Sort = (typeof SORTS)[number];

const API_SORT: Record<Sort, string | undefined> = {
  relevance: undefined,
  newest: '-id',
  price: 'price',
  '-price': '-price',
  name: 'name',
};

export interface ListingState {
  page: number;
  limit: number;
  sort: Sort;
  brands: string[];
  options: Record<string, string[]>;
  inStock: boolean;
  onSale: boolean;
  min?: number;
  max?: number;
}

export interface PageSizes {
  perPageDefault: number;
  perPageOptions: number[];
}

/** At most this many option names, as the API takes (docs/discovery.md). */
const MAX_OPTION_FILTERS = 10;

function positiveInt(value: string | null): number | undefined {
  if (!value || !/^\d{1,6}$/.test(value)) return undefined;
  const n = Number(value);
  return n > 0 ? n : undefined;
}

function price(value: string | null): number | undefined {
  if (!value || !/^\d{1,7}([.,]\d{1,2})?$/.test(value.trim())) return undefined;
  return Number(value.trim().replace(',', '.'));
}

/** The state of a list page; anything malformed is left out rather than refused. */
export function readListingState(query: URLSearchParams, sizes: PageSizes, defaultSort: Sort): ListingState {
  const limit = positiveInt(query.get('limit'));
  const sort = query.get('sort') as Sort | null;
  const options: Record<string, string[]> = {};
  for (const [key, value] of query) {
    if (!key.startsWith('option.') || !value) continue;
    const name = key.slice('option.'.length);
    if (!name || (!(name in options) && Object.keys(options).length >= MAX_OPTION_FILTERS)) continue;
    options[name] = [...(options[name] ?? []), value];
  }
  return {
    page: positiveInt(query.get('page')) ?? 1,
    limit: limit && sizes.perPageOptions.includes(limit) ? limit : sizes.perPageDefault,
    sort: sort && SORTS.includes(sort) ? sort : defaultSort,
    brands: query.getAll('brand').filter(Boolean),
    options,
    inStock: query.get('inStock') === '1',
    onSale: query.get('onSale') === '1',
    min: price(query.get('min')),
    max: price(query.get('max')),
  };
}

/** A value of a list filter: commas separate values in the API, so a value holding one is left out. */
function anyOf(values: string[]): string | undefined {
  const usable = values.filter((value) => !value.includes(','));
  return usable.length ? usable.join(',') : undefined;
}

/** The filters as the API's list and facets take them. */
export function apiFilters(state: ListingState): Record<string, string> {
  const filters: Record<string, string> = {};
  const brands = anyOf(state.brands);
  if (brands) filters.brand = brands;
  for (const [name, values] of Object.entries(state.options)) {
    const value = anyOf(values);
    if (value) filters[`option.${name}`] = value;
  }
  if (state.inStock) filters.inStock = 'true';
  if (state.onSale) filters.onSale = 'true';
  if (state.min !== undefined) filters['price[gte]'] = state.min.toFixed(2);
  if (state.max !== undefined) filters['price[lte]'] = state.max.toFixed(2);
  return filters;
}

/** The page of products to ask for. */
export function apiListQuery(state: ListingState): Record<string, string> {
  const sort = API_SORT[state.sort];
  return {
    ...apiFilters(state),
    page: String(state.page),
    limit: String(state.limit),
    ...(sort ? { sort } : {}),
  };
}

/** The page's query string for a state (the defaults left out), for links and the canonical URL. */
export function listingSearch(
  state: ListingState,
  sizes: PageSizes,
  defaultSort: Sort,
  extra: Record<string, string> = {},
): string {
  const params = new URLSearchParams(extra);
  for (const brand of state.brands) params.append('brand', brand);
  for (const [name, values] of Object.entries(state.options)) {
    for (const value of values) params.append(`option.${name}`, value);
  }
  if (state.inStock) params.set('inStock', '1');
  if (state.onSale) params.set('onSale', '1');
  if (state.min !== undefined) params.set('min', String(state.min));
  if (state.max !== undefined) params.set('max', String(state.max));
  if (state.sort !== defaultSort) params.set('sort', state.sort);
  if (state.limit !== sizes.perPageDefault) params.set('limit', String(state.limit));
  if (state.page > 1) params.set('page', String(state.page));
  const search = params.toString();
  return search ? `?${search}` : '';
}

/** Whether any filter narrows the list (such pages are not indexed: the unfiltered one is canonical). */
export function isFiltered(state: ListingState): boolean {
  return Object.keys(apiFilters(state)).length > 0;
}
