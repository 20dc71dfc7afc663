// Who is shopping: a logged-in customer (their tokens in cookies) or a guest. An access token that
// expired is refreshed by the typed client; when the refresh token is gone too, the client drops
// both (their cookies are cleared) and the shopper is a guest again, their cart kept by the API.
import type { PageContext } from '../types.ts';
import { serializeCookie } from '../cookies.ts';

export interface Customer {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  phone: string | null;
  loyaltyPoints: number;
}

/** The logged-in customer, or undefined for a guest (or a session that could not be renewed). */
export async function currentCustomer(ctx: PageContext): Promise<Customer | undefined> {
  if (!ctx.api.session.accessToken && !ctx.api.session.refreshToken) return undefined;
  const answer = await ctx.api.api.GET('/rest/auth/customer/me');
  return answer.data?.data;
}

/** Whether the shopper came with a session that has now ended (for "log in again"). */
export function hadSession(ctx: PageContext): boolean {
  return Boolean(ctx.api.session.refreshToken ?? ctx.api.session.accessToken);
}

/**
 * The last order placed or looked up in this browser (number and e-mail), so a guest can read it
 * back through the public lookup (GET /rest/order/lookup) without an account.
 */
export const LAST_ORDER_COOKIE = 'shop_order';

export function lastOrderCookie(ctx: PageContext, order: { number: string; email: string }): string {
  return serializeCookie(
    LAST_ORDER_COOKIE,
    `${order.number}|${order.email}`,
    ctx.origin.startsWith('https:'),
  );
}

/** The e-mail address a guest ordered `number` with, from the last-order cookie. */
export function lastOrderEmail(ctx: PageContext, number: string): string | undefined {
  const value = ctx.cookies[LAST_ORDER_COOKIE];
  if (!value) return undefined;
  const [orderNumber, email] = value.split('|');
  return orderNumber === number ? email : undefined;
}
