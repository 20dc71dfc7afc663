// The shopper's session lives in cookies the storefront sets (HttpOnly, SameSite=Lax: a form of
// another site cannot post with them): the guest cart token and the customer's tokens.

export const SESSION_COOKIES = {
  cartToken: 'shop_cart',
  accessToken: 'shop_access',
  refreshToken: 'shop_refresh',
  deviceToken: 'shop_device',
} as const;

/** Kept as long as the refresh token lives at most (the API refuses it after its own lifetime). */
const MAX_AGE_SECONDS = 60 * 60 * 24 * 30;

export function parseCookies(header: string | undefined): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq < 1) continue;
    const name = part.slice(0, eq).trim();
    try {
      cookies[name] = decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      // A cookie this shop did not write; ignore it.
    }
  }
  return cookies;
}

/** A Set-Cookie value; `undefined` clears the cookie. */
export function serializeCookie(name: string, value: string | undefined, secure: boolean): string {
  const attributes = ['Path=/', 'HttpOnly', 'SameSite=Lax', ...(secure ? ['Secure'] : [])];
  if (value === undefined) return [`${name}=`, 'Max-Age=0', ...attributes].join('; ');
  return [`${name}=${encodeURIComponent(value)}`, `Max-Age=${MAX_AGE_SECONDS}`, ...attributes].join('; ');
}
