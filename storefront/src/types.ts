import type { ShopClient } from '@shop/client';
import type { VNode } from 'preact';
import type { Locale, Messages } from './i18n.ts';

/** What the service hands the render bundle for one request (src/http/storefront.ts). */
export interface RenderRequest {
  method: 'GET' | 'HEAD' | 'POST';
  /** The path and query as received, e.g. `/el/p/espresso?variant=3`. */
  url: string;
  /** `https://shop.example.com`: canonical URLs, the sitemap and the form-origin check use it. */
  origin: string;
  headers: { 'accept-language'?: string; cookie?: string; origin?: string };
  /** A posted form's fields (application/x-www-form-urlencoded). */
  form?: Record<string, string | string[]>;
}

export interface RenderResponse {
  status: number;
  headers: Record<string, string | string[]>;
  body: string;
}

/** Everything a page needs to know about its request. */
export interface PageContext {
  locale: Locale;
  t: Messages;
  /** The path after the locale, always starting with `/` (`/` for home). */
  path: string;
  /** The route's `:name` parts. */
  params: Record<string, string>;
  query: URLSearchParams;
  /** The typed client of the public REST API, in this request's locale and with the shopper's tokens. */
  api: ShopClient;
  origin: string;
  /** A path of this shop in a locale (this request's by default): `href('/p/x')` → `/el/p/x`. */
  href(path: string, locale?: Locale): string;
  /** Storefront settings (GET /rest/v1/storefront-config), read once per request. */
  config(): Promise<StorefrontConfig>;
  /** A posted form's fields (POST routes only). */
  form: URLSearchParams;
  /** The request's cookies (the session's are read through `api`). */
  cookies: Record<string, string>;
}

export type StorefrontConfig = NonNullable<Awaited<ReturnType<typeof readConfig>>>;
async function readConfig(api: ShopClient) {
  return (await api.api.GET('/rest/v1/storefront-config')).data?.data;
}

export interface Head {
  title: string;
  description?: string;
  /** The canonical path of this page in this locale (with its locale and query), e.g. `/el/p/espresso`. */
  canonical?: string;
  /** The same page in every locale, for `hreflang` and the language switch. */
  alternates?: Partial<Record<Locale, string>>;
  /** schema.org data, written as application/ld+json. */
  jsonLd?: object;
  noindex?: boolean;
  /** The image a shopper sees first (Largest Contentful Paint): fetched before the style sheet is read. */
  preloadImage?: { href: string; srcset: string; sizes: string };
}

export type PageResult =
  | { kind: 'page'; status?: number; head: Head; body: VNode; scripts?: string[]; cookies?: string[] }
  | { kind: 'redirect'; location: string; status?: 301 | 302 | 303; cookies?: string[] }
  | { kind: 'not-found' };

export type Page = (ctx: PageContext) => Promise<PageResult>;

export interface Route {
  method: 'GET' | 'POST';
  /** After the locale: `/`, `/p/:slug`, `/c/:slug`, `/search`… */
  path: string;
  page: Page;
}
