import { unwrap } from '@shop/client';
import type { Product } from '../catalog.ts';
import { type Facets, ListingView } from '../components/listing-view.tsx';
import { priceLabels } from '../components/price.tsx';
import { highlight } from '../highlight.ts';
import { apiFilters, apiListQuery, readListingState, type Sort } from '../listing.ts';
import type { Page } from '../types.ts';

const DEFAULT_SORT: Sort = 'relevance';
const SORTS: Sort[] = ['relevance', 'newest', 'price', '-price', 'name'];
/** The API reads at most this much of q; longer is cut rather than refused. */
const MAX_QUERY = 200;

/** Search: every word found, typos forgiven (docs/discovery.md), the words marked in the names. */
export const searchPage: Page = async (ctx) => {
  const q = (ctx.query.get('q') ?? '').trim().slice(0, MAX_QUERY);
  const basePath = ctx.href('/search');
  const head = {
    title: q ? ctx.t.searchResults(q) : ctx.t.search,
    canonical: q ? `${basePath}?q=${encodeURIComponent(q)}` : basePath,
    alternates: {
      el: `${ctx.href('/search', 'el')}${q ? `?q=${encodeURIComponent(q)}` : ''}`,
      en: `${ctx.href('/search', 'en')}${q ? `?q=${encodeURIComponent(q)}` : ''}`,
    },
    // Result pages are the catalog's pages again: search engines index those.
    noindex: true,
  };
  if (!q) {
    return {
      kind: 'page',
      head,
      body: <SearchForm action={basePath} label={ctx.t.searchEmpty} title={ctx.t.search} />,
    };
  }
  const config = await ctx.config();
  const sizes = config.listing;
  const state = readListingState(ctx.query, sizes, DEFAULT_SORT);
  // `option.<Name>` is no named parameter of the typed operation (any name may follow the dot).
  type ListQuery = { q: string };
  const [list, facets] = await Promise.all([
    ctx.api.api
      .GET('/rest/product/product', { params: { query: { q, ...apiListQuery(state) } as ListQuery } })
      .then(unwrap),
    ctx.api.api
      .GET('/rest/product/product/facets', { params: { query: { q, ...apiFilters(state) } as ListQuery } })
      .then((answer) => unwrap(answer).data as Facets),
  ]);
  const marked = (product: Product) =>
    highlight(product.name, q).map((segment) => (segment.mark ? <mark>{segment.text}</mark> : segment.text));
  return {
    kind: 'page',
    head,
    scripts: ['listing'],
    body: (
      <>
        <h1>{ctx.t.searchResults(q)}</h1>
        {list.pagination.total === 0 && !Object.keys(apiFilters(state)).length ? (
          <p>{ctx.t.searchNone(q)}</p>
        ) : (
          <ListingView
            ctx={ctx}
            basePath={basePath}
            state={state}
            sizes={sizes}
            defaultSort={DEFAULT_SORT}
            sorts={SORTS}
            products={list.data}
            total={list.pagination.total}
            facets={facets}
            labels={priceLabels(config, ctx.locale, ctx.t)}
            hidden={{ q }}
            name={marked}
          />
        )}
      </>
    ),
  };
};

function SearchForm(props: { action: string; label: string; title: string }) {
  return (
    <section class="message">
      <h1>{props.title}</h1>
      <form method="get" action={props.action}>
        <label for="search-page-q">{props.label}</label>
        <p class="search-again">
          <input id="search-page-q" type="search" name="q" required />
          <button type="submit">{props.title}</button>
        </p>
      </form>
    </section>
  );
}
