// The account's forms: saved addresses, the wishlist, password reset with the e-mailed code, and
// the e-mail verification code. Each posts, calls the API and redirects (post, redirect, get).
import { ShopApiError, unwrap } from '@shop/client';
import { Notice } from '../shopping/totals-view.tsx';
import type { Page, PageContext, PageResult } from '../types.ts';
import { accountHead } from './account.tsx';
import { NewPasswordField } from '../shopping/account-view.tsx';

const toLogin = (ctx: PageContext): PageResult => ({
  kind: 'redirect',
  location: ctx.href('/account/login?expired=1'),
});

/** An account write; a session that ended goes to the login (the refresh token renews a live one). */
async function accountWrite(ctx: PageContext, run: () => Promise<unknown>): Promise<PageResult> {
  try {
    await run();
  } catch (err) {
    if (err instanceof ShopApiError && err.status === 401) return toLogin(ctx);
    if (!(err instanceof ShopApiError) || err.status >= 500) throw err;
  }
  return { kind: 'redirect', location: ctx.href('/account') };
}

const field = (ctx: PageContext, name: string, max = 200) => (ctx.form.get(name) ?? '').trim().slice(0, max);

/** POST /account/addresses */
export const addAddressPost: Page = async (ctx) =>
  accountWrite(ctx, async () => {
    const phone = field(ctx, 'phone', 40);
    unwrap(
      await ctx.api.api.POST('/rest/customer/address', {
        body: {
          firstName: field(ctx, 'firstName'),
          lastName: field(ctx, 'lastName'),
          ...(phone ? { phone } : {}),
          street: field(ctx, 'street'),
          city: field(ctx, 'city'),
          postalCode: field(ctx, 'postalCode', 20),
          countryAlpha2: field(ctx, 'countryAlpha2', 2).toUpperCase(),
        },
      }),
    );
  });

/** POST /account/addresses/delete */
export const deleteAddressPost: Page = async (ctx) => {
  const id = Number(ctx.form.get('id'));
  if (!Number.isInteger(id) || id < 1) return { kind: 'redirect', location: ctx.href('/account') };
  return accountWrite(ctx, async () =>
    unwrap(await ctx.api.api.DELETE('/rest/customer/address/{id}', { params: { path: { id } } })),
  );
};

/** POST /wishlist {productId}: a form a product page may carry; a guest logs in first. */
export const addToWishlistPost: Page = async (ctx) => {
  const productId = Number(ctx.form.get('productId'));
  if (!Number.isInteger(productId) || productId < 1)
    return { kind: 'redirect', location: ctx.href('/account') };
  if (!ctx.api.session.accessToken && !ctx.api.session.refreshToken) {
    return { kind: 'redirect', location: ctx.href('/account/login') };
  }
  return accountWrite(ctx, async () =>
    unwrap(await ctx.api.api.POST('/rest/customer/wishlist', { body: { productId } })),
  );
};

/** POST /wishlist/remove {productId} */
export const removeFromWishlistPost: Page = async (ctx) => {
  const productId = Number(ctx.form.get('productId'));
  if (!Number.isInteger(productId) || productId < 1)
    return { kind: 'redirect', location: ctx.href('/account') };
  return accountWrite(ctx, async () =>
    unwrap(
      await ctx.api.api.DELETE('/rest/customer/wishlist/product/{productId}', {
        params: { path: { productId } },
      }),
    ),
  );
};

/** GET /account/reset: ask for the code; `?sent=1` then the form to use it. */
export const resetPage: Page = async (ctx) => codeForms(ctx);

function codeForms(ctx: PageContext, error?: string, status = 200): PageResult {
  const { t } = ctx;
  const sent = ctx.query.has('sent') || ctx.form.has('token');
  return {
    kind: 'page',
    status,
    head: accountHead(ctx, '/account/reset', t.resetTitle),
    body: (
      <section class="account-form narrow">
        <h1>{t.resetTitle}</h1>
        {error && (
          <Notice kind="error">
            <p>{error}</p>
          </Notice>
        )}
        {sent && !error && (
          <Notice kind="info">
            <p>{t.resetSent}</p>
          </Notice>
        )}
        {!sent && (
          <form method="post" action={ctx.href('/account/reset')}>
            <p>{t.resetText}</p>
            <label for="reset-email">{t.email}</label>
            <input id="reset-email" name="email" type="email" autocomplete="email" required />
            <button type="submit" class="primary">
              {t.resetSend}
            </button>
          </form>
        )}
        <h2>{t.resetSetTitle}</h2>
        <form method="post" action={ctx.href('/account/reset/confirm')}>
          <label for="reset-token">{t.code}</label>
          <input id="reset-token" name="token" autocomplete="one-time-code" required />
          <NewPasswordField id="reset-password" label={t.newPassword} />
          <button type="submit" class="primary">
            {t.resetSetTitle}
          </button>
        </form>
      </section>
    ),
  };
}

/** POST /account/reset: 202 whatever the address (the API never says whether it has an account). */
export const resetPost: Page = async (ctx) => {
  const answer = await ctx.api.api.POST('/rest/auth/customer/password-reset', {
    body: { email: field(ctx, 'email', 254) },
  });
  if (answer.response.status === 429) return codeForms(ctx, ctx.t.errRateLimited, 429);
  return { kind: 'redirect', location: ctx.href('/account/reset?sent=1') };
};

/** POST /account/reset/confirm: the code and the new password; every session ends, log in again. */
export const resetConfirmPost: Page = async (ctx) => {
  const answer = await ctx.api.api.POST('/rest/auth/customer/password-reset/confirm', {
    body: { token: field(ctx, 'token', 200), password: (ctx.form.get('password') ?? '').slice(0, 200) },
  });
  if (!answer.response.ok) {
    const status = answer.response.status;
    return codeForms(ctx, status === 400 ? ctx.t.tokenInvalid : ctx.t.errForm, status >= 500 ? 502 : status);
  }
  return { kind: 'redirect', location: ctx.href('/account/login?reset=1') };
};

/** GET /account/verify: the form for the code the registration e-mailed (`?token=` fills it in). */
export const verifyPage: Page = async (ctx) => verifyForm(ctx);

function verifyForm(ctx: PageContext, error?: string, status = 200): PageResult {
  const { t } = ctx;
  return {
    kind: 'page',
    status,
    head: accountHead(ctx, '/account/verify', t.verifyTitle),
    body: (
      <section class="account-form narrow">
        <h1>{t.verifyTitle}</h1>
        {error && (
          <Notice kind="error">
            <p>{error}</p>
          </Notice>
        )}
        <form method="post" action={ctx.href('/account/verify')}>
          <label for="verify-token">{t.code}</label>
          <input
            id="verify-token"
            name="token"
            value={ctx.query.get('token') ?? ''}
            autocomplete="one-time-code"
            required
          />
          <button type="submit" class="primary">
            {t.verifyTitle}
          </button>
        </form>
      </section>
    ),
  };
}

/** POST /account/verify */
export const verifyPost: Page = async (ctx) => {
  const answer = await ctx.api.api.POST('/rest/auth/customer/verify-email', {
    body: { token: field(ctx, 'token', 200) },
  });
  if (!answer.response.ok) {
    const status = answer.response.status;
    return verifyForm(
      ctx,
      status === 400 ? ctx.t.tokenInvalid : ctx.t.errGeneric,
      status >= 500 ? 502 : status,
    );
  }
  const loggedIn = Boolean(ctx.api.session.accessToken);
  return { kind: 'redirect', location: ctx.href(loggedIn ? '/account' : '/account/login?verified=1') };
};
