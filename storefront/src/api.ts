import { createShopClient, type Session, type ShopClient } from '@shop/client';
import { SESSION_COOKIES, serializeCookie } from './cookies.ts';
import type { Locale } from './i18n.ts';

// The storefront is a client of the public REST API like any other. The service hands it a
// `fetch` that answers in-process (no network hop); the base URL only has to be a valid one.
const BASE_URL = 'http://shop.internal';

export interface ApiSession {
  api: ShopClient;
  /** Set-Cookie values for the session changes the API made during this request (a new cart, a login). */
  cookieChanges(): string[];
}

/** A client in this request's locale, with the shopper's tokens from their cookies. */
export function apiFor(
  fetchImpl: typeof fetch,
  locale: Locale,
  cookies: Record<string, string>,
  secure: boolean,
): ApiSession {
  const initial: Partial<Session> = {
    cartToken: cookies[SESSION_COOKIES.cartToken],
    accessToken: cookies[SESSION_COOKIES.accessToken],
    refreshToken: cookies[SESSION_COOKIES.refreshToken],
    deviceToken: cookies[SESSION_COOKIES.deviceToken],
  };
  let latest: Session | undefined;
  const api = createShopClient({
    baseUrl: BASE_URL,
    context: 'customer',
    session: initial,
    onSessionChange: (session) => {
      latest = session;
    },
    // Every answer in the page's locale (catalog texts, slugs, e-mails of orders placed here).
    fetch: (input, init) => {
      const request = new Request(input, init);
      request.headers.set('accept-language', locale);
      return fetchImpl(request);
    },
  });
  return {
    api,
    cookieChanges() {
      if (!latest) return [];
      const changes: string[] = [];
      for (const key of Object.keys(SESSION_COOKIES) as (keyof typeof SESSION_COOKIES)[]) {
        if (latest[key] !== initial[key])
          changes.push(serializeCookie(SESSION_COOKIES[key], latest[key], secure));
      }
      return changes;
    },
  };
}
