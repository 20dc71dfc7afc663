// The customer's account: login, registration, logout, and the account's page (orders, addresses,
// wishlist). Tokens live in HttpOnly cookies (cookies.ts); an expired access token is renewed by
// the typed client with the refresh token, and when that is gone too the shopper logs in again,
// their cart kept by the API (it belongs to the account).
import { ShopApiError, unwrap } from '@shop/client';
import { AccountView, NewPasswordField } from '../shopping/account-view.tsx';
import { currentCustomer, hadSession } from '../shopping/session.ts';
import { Notice } from '../shopping/totals-view.tsx';
import type { Head, Page, PageContext, PageResult } from '../types.ts';

export function accountHead(ctx: PageContext, path: string, title: string): Head {
  return {
    title,
    canonical: ctx.href(path),
    noindex: true,
    alternates: { el: ctx.href(path, 'el'), en: ctx.href(path, 'en') },
  };
}

/** Where a login or registration leads: back to the checkout, or the account (nowhere else). */
function nextPath(value: string | null): string {
  return value === 'checkout' ? '/checkout' : '/account';
}

export const accountPage: Page = async (ctx) => {
  const customer = await currentCustomer(ctx);
  if (!customer) {
    return {
      kind: 'redirect',
      location: ctx.href(hadSession(ctx) ? '/account/login?expired=1' : '/account/login'),
    };
  }
  const api = ctx.api.api;
  const [orders, addresses, wishlist] = await Promise.all([
    api.GET('/rest/order/order', { params: { query: { limit: 20 } } }).then((a) => unwrap(a).data),
    api.GET('/rest/customer/address', { params: { query: { limit: 20 } } }).then((a) => unwrap(a).data),
    api
      .GET('/rest/customer/wishlist', { params: { query: { limit: 50, with: 'product' } } })
      .then((a) => unwrap(a).data),
  ]);
  return {
    kind: 'page',
    head: accountHead(ctx, '/account', ctx.t.accountTitle),
    body: (
      <AccountView
        ctx={ctx}
        customer={customer}
        orders={orders}
        addresses={addresses}
        wishlist={wishlist}
        notice={ctx.query.has('registered') ? ctx.t.registered : undefined}
      />
    ),
  };
};

export const loginPage: Page = async (ctx) => {
  const { t } = ctx;
  const notice = ctx.query.has('expired')
    ? t.sessionExpired
    : ctx.query.has('reset')
      ? t.resetDone
      : ctx.query.has('verified')
        ? t.verifyDone
        : undefined;
  return loginForm(ctx, '', notice ? { kind: 'info', text: notice } : undefined);
};

function loginForm(
  ctx: PageContext,
  email: string,
  message?: { kind: 'error' | 'info'; text: string },
  status = 200,
): PageResult {
  const { t } = ctx;
  const next = ctx.query.get('next') ?? ctx.form.get('next') ?? '';
  return {
    kind: 'page',
    status,
    head: accountHead(ctx, '/account/login', t.login),
    body: (
      <section class="account-form narrow">
        <h1>{t.login}</h1>
        {message && (
          <Notice kind={message.kind}>
            <p>{message.text}</p>
          </Notice>
        )}
        <form method="post" action={ctx.href('/account/login')}>
          <input type="hidden" name="next" value={next} />
          <label for="login-email">{t.email}</label>
          <input id="login-email" name="email" type="email" value={email} autocomplete="username" required />
          <label for="login-password">{t.password}</label>
          <input
            id="login-password"
            name="password"
            type="password"
            autocomplete="current-password"
            required
          />
          <button type="submit" class="primary">
            {t.login}
          </button>
        </form>
        <p>
          <a href={ctx.href('/account/reset')}>{t.forgotPassword}</a>
        </p>
        <p>
          <a href={ctx.href(`/account/register${next ? `?next=${encodeURIComponent(next)}` : ''}`)}>
            {t.register}
          </a>
        </p>
        <p>
          <a href={ctx.href('/order-lookup')}>{t.lookupOrderLink}</a>
        </p>
      </section>
    ),
  };
}

/** POST /account/login: the guest cart merges into the account's (the API does it at login). */
export const loginPost: Page = async (ctx) => {
  const email = (ctx.form.get('email') ?? '').trim().slice(0, 254);
  const password = (ctx.form.get('password') ?? '').slice(0, 200);
  try {
    await ctx.api.login(email, password);
  } catch (err) {
    if (!(err instanceof ShopApiError) || err.status >= 500) throw err;
    const text = err.status === 429 ? ctx.t.errRateLimited : ctx.t.loginFailed;
    return loginForm(ctx, email, { kind: 'error', text }, err.status === 429 ? 429 : 401);
  }
  return { kind: 'redirect', location: ctx.href(nextPath(ctx.form.get('next'))) };
};

export const registerPage: Page = async (ctx) => registerForm(ctx, new URLSearchParams());

function registerForm(ctx: PageContext, values: URLSearchParams, message?: string, status = 200): PageResult {
  const { t } = ctx;
  const next = ctx.query.get('next') ?? ctx.form.get('next') ?? '';
  const field = (
    name: string,
    label: string,
    type: 'text' | 'email' | 'tel',
    autocomplete: string,
    required = true,
  ) => (
    <>
      <label for={`register-${name}`}>{label}</label>
      <input
        id={`register-${name}`}
        name={name}
        type={type as 'text'}
        value={values.get(name) ?? ''}
        autocomplete={autocomplete}
        required={required}
      />
    </>
  );
  return {
    kind: 'page',
    status,
    head: accountHead(ctx, '/account/register', t.register),
    body: (
      <section class="account-form narrow">
        <h1>{t.register}</h1>
        {message && (
          <Notice kind="error">
            <p>{message}</p>
          </Notice>
        )}
        <form method="post" action={ctx.href('/account/register')}>
          <input type="hidden" name="next" value={next} />
          {field('firstName', t.firstName, 'text', 'given-name')}
          {field('lastName', t.lastName, 'text', 'family-name')}
          {field('email', t.email, 'email', 'email')}
          {field('phone', t.phone, 'tel', 'tel', false)}
          <NewPasswordField id="register-password" label={t.password} />
          <button type="submit" class="primary">
            {t.register}
          </button>
        </form>
        <p>
          <a href={ctx.href('/account/login')}>{t.login}</a>
        </p>
      </section>
    ),
  };
}

/** POST /account/register: the new customer is logged in; the guest cart is kept. */
export const registerPost: Page = async (ctx) => {
  const form = ctx.form;
  const value = (name: string, max = 200) => (form.get(name) ?? '').trim().slice(0, max);
  const phone = value('phone', 40);
  try {
    await ctx.api.register({
      email: value('email', 254),
      password: (form.get('password') ?? '').slice(0, 200),
      firstName: value('firstName'),
      lastName: value('lastName'),
      ...(phone ? { phone } : {}),
      locale: ctx.locale,
    });
  } catch (err) {
    if (!(err instanceof ShopApiError) || err.status >= 500) throw err;
    const message =
      err.status === 409 ? ctx.t.emailTaken : err.status === 429 ? ctx.t.errRateLimited : ctx.t.errForm;
    return registerForm(ctx, form, message, err.status);
  }
  const next = nextPath(form.get('next'));
  return { kind: 'redirect', location: ctx.href(next === '/account' ? '/account?registered=1' : next) };
};

/** POST /account/logout: the refresh token is revoked; the device token stays for the next login. */
export const logoutPost: Page = async (ctx) => {
  await ctx.api.logout().catch(() => undefined);
  return { kind: 'redirect', location: ctx.href('/') };
};
