// /sitemap.xml and /robots.txt: what search engines read first. The sitemap lists home, every
// category and every product in each locale, each with its pages in the other locales (hreflang).
import { unwrap } from '@shop/client';
import type { ShopClient } from '@shop/client';
import { LOCALES, type Locale } from './i18n.ts';

/** Rows per read of the catalog (the API clamps a storefront's page to its rest_max_page_size). */
const PAGE = 500;
/** A sitemap file holds at most 50,000 addresses (sitemaps.org); past that, a sitemap index would be needed. */
const MAX_URLS = 50_000;

type Slugs = Map<number, Partial<Record<Locale, string>>>;

async function slugsOf(
  api: ShopClient,
  kind: 'product' | 'category',
  locale: Locale,
  into: Slugs,
): Promise<void> {
  for (let page = 1; ; page++) {
    const query = { page, limit: PAGE, sort: 'id', locale };
    const answer =
      kind === 'product'
        ? unwrap(await api.api.GET('/rest/product/product', { params: { query } }))
        : unwrap(await api.api.GET('/rest/product/category', { params: { query } }));
    for (const row of answer.data) into.set(row.id, { ...into.get(row.id), [locale]: row.slug });
    if (answer.data.length < PAGE || into.size >= MAX_URLS) return;
  }
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function entry(origin: string, paths: Partial<Record<Locale, string>>): string {
  const alternates = LOCALES.filter((locale) => paths[locale])
    .map(
      (locale) =>
        `<xhtml:link rel="alternate" hreflang="${locale}" href="${escapeXml(`${origin}${paths[locale]}`)}"/>`,
    )
    .join('');
  return LOCALES.filter((locale) => paths[locale])
    .map((locale) => `<url><loc>${escapeXml(`${origin}${paths[locale]}`)}</loc>${alternates}</url>`)
    .join('\n');
}

export async function sitemap(api: ShopClient, origin: string): Promise<string> {
  const products: Slugs = new Map();
  const categories: Slugs = new Map();
  await Promise.all(
    LOCALES.flatMap((locale) => [
      slugsOf(api, 'product', locale, products),
      slugsOf(api, 'category', locale, categories),
    ]),
  );
  const paths = (prefix: string, slugs: Partial<Record<Locale, string>>) =>
    Object.fromEntries(
      LOCALES.filter((locale) => slugs[locale]).map((locale) => [
        locale,
        `/${locale}${prefix}/${encodeURIComponent(slugs[locale] ?? '')}`,
      ]),
    );
  const entries = [
    entry(origin, Object.fromEntries(LOCALES.map((locale) => [locale, `/${locale}`]))),
    ...[...categories.values()].map((slugs) => entry(origin, paths('/c', slugs))),
    ...[...products.values()].map((slugs) => entry(origin, paths('/p', slugs))),
  ].slice(0, MAX_URLS);
  return `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">
${entries.join('\n')}
</urlset>
`;
}

/** Pages for one shopper (cart, checkout, account) and result pages stay out of search engines. */
export function robots(origin: string): string {
  const personal = ['/search', '/cart', '/checkout', '/account', '/order'];
  return [
    'User-agent: *',
    'Allow: /',
    'Disallow: /rest/',
    'Disallow: /admin',
    ...LOCALES.flatMap((locale) => personal.map((path) => `Disallow: /${locale}${path}`)),
    '',
    `Sitemap: ${origin}/sitemap.xml`,
    '',
  ].join('\n');
}
