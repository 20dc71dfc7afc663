// The storefront's entry, loaded by the service (src/http/storefront.ts) from storefront/dist/server.mjs:
// `render(request, fetch)` answers one request of `/`, `/<locale>/…`, `/sitemap.xml` or `/robots.txt`,
// calling the public REST API through the typed client and the in-process `fetch` it is given.
import { ShopApiError } from '@shop/client';
import { renderToString } from 'preact-render-to-string';
import { apiFor } from './api.ts';
import { INLINE_STYLES } from './assets.ts';
import { parseCookies } from './cookies.ts';
import {
  DEFAULT_LOCALE,
  isLocale,
  LOCALES,
  type Locale,
  localeFromAcceptLanguage,
  MESSAGES,
} from './i18n.ts';
import { Document, type NavCategory } from './layout.tsx';
import { errorPage, notFoundPage } from './pages/not-found.tsx';
import { matchRoute } from './routes.ts';
import { robots, sitemap } from './seo.ts';
import type { PageContext, PageResult, RenderRequest, RenderResponse, StorefrontConfig } from './types.ts';

export { LOCALES };
/** CSP sources the pages need beyond 'self' (the inline style sheet's hash). */
export const STYLE_SOURCES = INLINE_STYLES ? [`'${INLINE_STYLES.hash}'`] : [];
export type { RenderRequest, RenderResponse };

const HTML = 'text/html; charset=utf-8';
/** The same for everyone, and it may be an hour old. */
const PUBLIC = { 'cache-control': 'public, max-age=3600' };

export async function render(request: RenderRequest, fetchImpl: typeof fetch): Promise<RenderResponse> {
  const url = new URL(request.url, request.origin);
  if (url.pathname === '/') return chooseLocale(request);
  if (url.pathname === '/robots.txt') {
    return {
      status: 200,
      headers: { 'content-type': 'text/plain; charset=utf-8', ...PUBLIC },
      body: robots(request.origin),
    };
  }
  if (url.pathname === '/sitemap.xml') {
    const { api } = apiFor(fetchImpl, DEFAULT_LOCALE, {}, false);
    const body = await sitemap(api, request.origin);
    return { status: 200, headers: { 'content-type': 'application/xml; charset=utf-8', ...PUBLIC }, body };
  }
  const [, first = '', ...rest] = url.pathname.split('/');
  if (!isLocale(first)) return { status: 404, headers: { 'content-type': 'text/plain' }, body: 'Not found' };
  const locale: Locale = first;
  const method = request.method === 'POST' ? 'POST' : 'GET';
  // A form posted from another site: refused (the cookies are SameSite=Lax too).
  if (method === 'POST' && request.headers.origin && request.headers.origin !== request.origin) {
    return { status: 403, headers: { 'content-type': 'text/plain' }, body: 'Forbidden' };
  }
  const secure = request.origin.startsWith('https:');
  const cookies = parseCookies(request.headers.cookie);
  const session = apiFor(fetchImpl, locale, cookies, secure);
  let config: Promise<StorefrontConfig> | undefined;
  const ctx: PageContext = {
    locale,
    t: MESSAGES[locale],
    path: `/${rest.join('/')}`,
    params: {},
    query: url.searchParams,
    api: session.api,
    origin: request.origin,
    href: (path, inLocale = locale) => (path === '/' ? `/${inLocale}` : `/${inLocale}${path}`),
    config: () => {
      config ??= session.api.api.GET('/rest/v1/storefront-config').then((answer) => {
        if (!answer.data) throw apiError(answer.response);
        return answer.data.data;
      });
      return config;
    },
    form: new URLSearchParams(formEntries(request.form)),
    cookies,
  };
  const matched = matchRoute(method, ctx.path);
  const nav = method === 'GET' ? navigation(ctx) : Promise.resolve([]);
  let result: PageResult;
  try {
    if (!matched) result = notFoundPage(ctx);
    else {
      ctx.params = matched.params;
      result = await matched.route.page(ctx);
      if (result.kind === 'not-found') result = notFoundPage(ctx);
    }
  } catch (err) {
    if (!(err instanceof ShopApiError)) throw err;
    // A 400 here means the address held what the API refuses (a slug too long, a malformed
    // filter): for the shopper it is an address that leads nowhere.
    result =
      err.status === 404 || err.status === 400
        ? notFoundPage(ctx)
        : errorPage(ctx, err.status, err.requestId);
  }
  const headers: Record<string, string | string[]> = {};
  // The session's changes, then the page's own cookies (the last order a guest may read back).
  const setCookies = [
    ...session.cookieChanges(),
    ...(result.kind === 'not-found' ? [] : (result.cookies ?? [])),
  ];
  if (setCookies.length) headers['set-cookie'] = setCookies;
  if (result.kind === 'redirect') {
    return { status: result.status ?? 303, headers: { ...headers, location: result.location }, body: '' };
  }
  if (result.kind === 'not-found') throw new Error('unreachable');
  const page = result;
  const html = renderToString(
    <Document ctx={ctx} head={page.head} nav={await nav.catch(() => [])} scripts={page.scripts ?? []}>
      {page.body}
    </Document>,
  );
  return {
    status: page.status ?? 200,
    headers: { ...headers, 'content-type': HTML, 'content-language': locale },
    body: `<!doctype html>${html}`,
  };
}

/** `/`: the shopper's language by Accept-Language. */
function chooseLocale(request: RenderRequest): RenderResponse {
  const locale = localeFromAcceptLanguage(request.headers['accept-language']);
  return { status: 302, headers: { location: `/${locale}`, vary: 'Accept-Language' }, body: '' };
}

/** The top categories for the header. */
async function navigation(ctx: PageContext): Promise<NavCategory[]> {
  const answer = await ctx.api.api.GET('/rest/product/category', {
    params: { query: { parentId: 'null', sort: 'position', limit: 12 } },
  });
  return (answer.data?.data ?? []).map((category) => ({ name: category.name, slug: category.slug }));
}

function formEntries(form: RenderRequest['form']): [string, string][] {
  if (!form) return [];
  return Object.entries(form).flatMap(([name, value]) =>
    [value].flat().map((v): [string, string] => [name, v]),
  );
}

function apiError(response: Response): ShopApiError {
  return new ShopApiError(
    response.status,
    'INTERNAL',
    response.statusText,
    undefined,
    response.headers.get('x-request-id'),
  );
}
