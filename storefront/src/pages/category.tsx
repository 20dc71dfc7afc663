import { unwrap } from '@shop/client';
import { categoryBySlug, slugIn, trailOf } from '../catalog.ts';
import { Breadcrumb } from '../components/breadcrumb.tsx';
import { type Facets, ListingView } from '../components/listing-view.tsx';
import { priceLabels } from '../components/price.tsx';
import { LOCALES } from '../i18n.ts';
import { apiFilters, apiListQuery, isFiltered, readListingState, type Sort } from '../listing.ts';
import type { Head, Page } from '../types.ts';

const DEFAULT_SORT: Sort = 'newest';
const SORTS: Sort[] = ['newest', 'price', '-price', 'name'];

/** A category: its subcategories, and the products of its whole subtree with filters, sort and pages. */
export const categoryPage: Page = async (ctx) => {
  const [category, config] = await Promise.all([categoryBySlug(ctx, ctx.params.slug ?? ''), ctx.config()]);
  if (!category) return { kind: 'not-found' };
  const path = `/c/${encodeURIComponent(category.slug)}`;
  if (category.slug !== ctx.params.slug) {
    return {
      kind: 'redirect',
      status: 301,
      location: `${ctx.href(path)}${ctx.query.size ? `?${ctx.query}` : ''}`,
    };
  }
  const sizes = config.listing;
  const state = readListingState(ctx.query, sizes, DEFAULT_SORT);
  const scope = { categoryId: String(category.id) };
  // `option.<Name>` is no named parameter of the typed operation (any name may follow the dot).
  type ListQuery = { categoryId: string };
  const [trail, children, list, facets, otherSlugs] = await Promise.all([
    trailOf(ctx, category),
    ctx.api.api
      .GET('/rest/product/category', {
        params: { query: { parentId: String(category.id), sort: 'position', limit: 100 } },
      })
      .then((answer) => unwrap(answer).data),
    ctx.api.api
      .GET('/rest/product/product', { params: { query: { ...scope, ...apiListQuery(state) } as ListQuery } })
      .then(unwrap),
    ctx.api.api
      .GET('/rest/product/product/facets', {
        params: { query: { ...scope, ...apiFilters(state) } as ListQuery },
      })
      .then((answer) => unwrap(answer).data as Facets),
    Promise.all(
      LOCALES.map(async (locale) => [locale, await slugIn(ctx, 'category', category.id, locale)] as const),
    ),
  ]);
  const pageQuery = state.page > 1 ? `?page=${state.page}` : '';
  const alternates: Head['alternates'] = {};
  for (const [locale, slug] of otherSlugs) {
    alternates[locale] = `${ctx.href(`/c/${encodeURIComponent(slug ?? category.slug)}`, locale)}${pageQuery}`;
  }
  const total = list.pagination.total;
  const basePath = ctx.href(path);
  return {
    kind: 'page',
    head: {
      title:
        state.page > 1
          ? `${category.name} · ${ctx.t.page(state.page, Math.ceil(total / state.limit))}`
          : category.name,
      description: category.description || undefined,
      canonical: `${basePath}${pageQuery}`,
      alternates,
      // A filtered or re-sorted list repeats the category's products: the plain list is the one to index.
      noindex: isFiltered(state) || state.sort !== DEFAULT_SORT || state.limit !== sizes.perPageDefault,
    },
    scripts: ['listing'],
    body: (
      <>
        <Breadcrumb ctx={ctx} trail={trail} />
        <h1>{category.name}</h1>
        {category.description && <p class="lead">{category.description}</p>}
        {children.length > 0 && (
          <nav class="subcategories" aria-label={ctx.t.subcategories}>
            <ul>
              {children.map((child) => (
                <li>
                  <a href={ctx.href(`/c/${encodeURIComponent(child.slug)}`)}>{child.name}</a>
                </li>
              ))}
            </ul>
          </nav>
        )}
        <ListingView
          ctx={ctx}
          basePath={basePath}
          state={state}
          sizes={sizes}
          defaultSort={DEFAULT_SORT}
          sorts={SORTS}
          products={list.data}
          total={total}
          facets={facets}
          labels={priceLabels(config, ctx.locale, ctx.t)}
        />
      </>
    ),
  };
};
