// Every page of the shop, after the locale prefix: one line per page, one file per page in pages/.
// `:name` matches one path segment (handed to the page as ctx.params.name).
import { categoryPage } from './pages/category.tsx';
import { homePage } from './pages/home.tsx';
import { productPage } from './pages/product.tsx';
import { searchPage } from './pages/search.tsx';
import type { Route } from './types.ts';
import { checkoutPage, checkoutPost } from './pages/checkout.tsx';
import {
  accountPage,
  loginPage,
  loginPost,
  logoutPost,
  registerPage,
  registerPost,
} from './pages/account.tsx';
import {
  addAddressPost,
  addToWishlistPost,
  deleteAddressPost,
  removeFromWishlistPost,
  resetConfirmPost,
  resetPage,
  resetPost,
  verifyPage,
  verifyPost,
} from './pages/account-actions.tsx';
import { authenticatePost, lookupPage, lookupPost, orderPage, payPage, payPost } from './pages/order.tsx';
import {
  addToCart,
  applyCoupon,
  cartPage,
  removeCartLine,
  removeCoupon,
  updateCartLine,
} from './pages/cart.tsx';

export const routes: Route[] = [
  { method: 'GET', path: '/', page: homePage },
  { method: 'GET', path: '/c/:slug', page: categoryPage },
  { method: 'GET', path: '/p/:slug', page: productPage },
  { method: 'GET', path: '/search', page: searchPage },
  { method: 'GET', path: '/cart', page: cartPage },
  { method: 'POST', path: '/cart/items', page: addToCart },
  { method: 'POST', path: '/cart/update', page: updateCartLine },
  { method: 'POST', path: '/cart/remove', page: removeCartLine },
  { method: 'POST', path: '/cart/coupon', page: applyCoupon },
  { method: 'POST', path: '/cart/coupon/remove', page: removeCoupon },
  { method: 'GET', path: '/checkout', page: checkoutPage },
  { method: 'POST', path: '/checkout', page: checkoutPost },
  { method: 'GET', path: '/order/:number', page: orderPage },
  { method: 'GET', path: '/order/:number/pay', page: payPage },
  { method: 'POST', path: '/order/:number/pay', page: payPost },
  { method: 'POST', path: '/order/:number/authenticate', page: authenticatePost },
  { method: 'GET', path: '/order-lookup', page: lookupPage },
  { method: 'POST', path: '/order-lookup', page: lookupPost },
  { method: 'GET', path: '/account', page: accountPage },
  { method: 'GET', path: '/account/login', page: loginPage },
  { method: 'POST', path: '/account/login', page: loginPost },
  { method: 'GET', path: '/account/register', page: registerPage },
  { method: 'POST', path: '/account/register', page: registerPost },
  { method: 'POST', path: '/account/logout', page: logoutPost },
  { method: 'POST', path: '/account/addresses', page: addAddressPost },
  { method: 'POST', path: '/account/addresses/delete', page: deleteAddressPost },
  { method: 'POST', path: '/wishlist', page: addToWishlistPost },
  { method: 'POST', path: '/wishlist/remove', page: removeFromWishlistPost },
  { method: 'GET', path: '/account/reset', page: resetPage },
  { method: 'POST', path: '/account/reset', page: resetPost },
  { method: 'POST', path: '/account/reset/confirm', page: resetConfirmPost },
  { method: 'GET', path: '/account/verify', page: verifyPage },
  { method: 'POST', path: '/account/verify', page: verifyPost },
];

/** The route of a method and path (after the locale), with its parameters. */
export function matchRoute(
  method: 'GET' | 'POST',
  path: string,
): { route: Route; params: Record<string, string> } | undefined {
  const segments = path.split('/').filter(Boolean);
  for (const route of routes) {
    if (route.method !== method) continue;
    const pattern = route.path.split('/').filter(Boolean);
    if (pattern.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const matches = pattern.every((part, i) => {
      const segment = segments[i] ?? '';
      if (part.startsWith(':')) {
        try {
          params[part.slice(1)] = decodeURIComponent(segment);
        } catch {
          return false;
        }
        return true;
      }
      return part === segment;
    });
    if (matches) return { route, params };
  }
  return undefined;
}
