// The catalog's shapes as the pages use them (from the typed client) and the reads several pages share.
import { type Schemas, unwrap } from '@shop/client';
import type { Locale } from './i18n.ts';
import type { PageContext } from './types.ts';

export type Product = Schemas['Product'];
export type Variant = Schemas['Variant'];
export type Category = Schemas['Category'];
export type MediaImage = Product['media'][number];

/** The slug of a product or category in another locale, for hreflang and the language switch. */
export async function slugIn(
  ctx: PageContext,
  kind: 'product' | 'category',
  id: number,
  locale: Locale,
): Promise<string | undefined> {
  if (locale === ctx.locale) return undefined;
  const answer =
    kind === 'product'
      ? await ctx.api.api.GET('/rest/product/product/{id}', { params: { path: { id }, query: { locale } } })
      : await ctx.api.api.GET('/rest/product/category/{id}', { params: { path: { id }, query: { locale } } });
  return answer.data?.data.slug;
}

/** A category by its slug (in any locale), or undefined. */
export async function categoryBySlug(ctx: PageContext, slug: string): Promise<Category | undefined> {
  const answer = await ctx.api.api.GET('/rest/product/category/item', { params: { query: { slug } } });
  if (answer.response.status === 404) return undefined;
  return unwrap(answer).data;
}

/**
 * Home › … › the category, each name in the page's locale. The API answers a category's `path`
 * (its ancestors) with their default-locale names, so the ancestors are read again in this locale
 * (one list request by id).
 */
export async function trailOf(
  ctx: PageContext,
  category: Category,
): Promise<{ name: string; slug: string }[]> {
  if (category.path.length === 0) return [category];
  const ids = category.path.map((ancestor) => ancestor.id);
  const answer = await ctx.api.api.GET('/rest/product/category', {
    params: { query: { id: ids.join(','), limit: ids.length } },
  });
  const byId = new Map((answer.data?.data ?? []).map((row) => [row.id, row]));
  return [...category.path.map((ancestor) => byId.get(ancestor.id) ?? ancestor), category];
}
