// The order's page (confirmation right after ordering, and later), the card payment with the test
// provider's steps, and the guest order lookup. The card number goes only to the provider's
// endpoint through the API (POST /rest/payments/test/confirm); the shop keeps none of it.
import { unwrap } from '@shop/client';
import { formatPrice } from '../i18n.ts';
import { type Order, awaitsCard, findOrder } from '../shopping/orders.ts';
import { OrderView } from '../shopping/order-view.tsx';
import { refusalOf } from '../shopping/refusals.ts';
import { lastOrderCookie } from '../shopping/session.ts';
import { Notice } from '../shopping/totals-view.tsx';
import type { Head, Page, PageContext, PageResult } from '../types.ts';

/** How many times the confirmation reloads itself while a card payment is confirmed (then a link). */
const MAX_WAITS = 10;

function orderHead(ctx: PageContext, path: string, title: string): Head {
  return {
    title,
    canonical: ctx.href(path),
    noindex: true,
    alternates: { el: ctx.href(path, 'el'), en: ctx.href(path, 'en') },
  };
}

const orderPath = (order: Pick<Order, 'number'>) => `/order/${encodeURIComponent(order.number)}`;

/** An order this shopper may not read (or none): the lookup form, with the number filled in. */
function toLookup(ctx: PageContext): PageResult {
  return {
    kind: 'redirect',
    status: 303,
    location: ctx.href(`/order-lookup?number=${encodeURIComponent(ctx.params.number ?? '')}`),
  };
}

export const orderPage: Page = async (ctx) => {
  const order = await findOrder(ctx, ctx.params.number ?? '');
  if (!order) return toLookup(ctx);
  const { t } = ctx;
  const waits = Number(ctx.query.get('wait') ?? '0') || 0;
  // Paid by card, the provider's event not yet in (`?wait` after the card step): the page reloads
  // itself a few times (order-status.ts). The order's payment moves only with that event.
  const unpaidCard =
    order.payWay === 'card' && order.paymentStatus === 'pending' && order.status === 'pending';
  // An earlier declined attempt's event may arrive in between: it does not stop the wait.
  const confirming = unpaidCard && (ctx.query.has('wait') || !awaitsCard(order));
  return {
    kind: 'page',
    head: orderHead(ctx, orderPath(order), t.orderTitle(order.number)),
    scripts: confirming && waits < MAX_WAITS ? ['order-status'] : [],
    body: (
      <section class="order-page">
        <h1>{t.orderTitle(order.number)}</h1>
        {order.status !== 'cancelled' && (
          <Notice kind="info">
            <p>{t.thankYou}</p>
            <p>{t.orderEmailSent(order.email)}</p>
          </Notice>
        )}
        {(!confirming || waits >= MAX_WAITS) && awaitsCard(order) && (
          <p>
            <a class="button primary" href={ctx.href(`${orderPath(order)}/pay`)}>
              {t.payNow}
            </a>
          </p>
        )}
        {confirming && (
          <p data-confirming={waits}>
            {t.paymentProcessing} <a href={ctx.href(`${orderPath(order)}?wait=${waits + 1}`)}>{t.refresh}</a>
          </p>
        )}
        {order.payWay === 'card' && order.paymentStatus === 'paid' && <p data-paid>{t.paymentDone}</p>}
        <OrderView ctx={ctx} order={order} />
      </section>
    ),
  };
};

/** GET /order/:number/pay: the card form; `?step=3ds` the 3-D Secure step; `?declined=1` a retry. */
export const payPage: Page = async (ctx) => {
  const order = await findOrder(ctx, ctx.params.number ?? '');
  if (!order) return toLookup(ctx);
  if (ctx.query.get('step') === '3ds' && order.payment) return secureStep(ctx, order);
  if (!awaitsCard(order)) return { kind: 'redirect', location: ctx.href(orderPath(order)) };
  const declined = ctx.query.get('declined');
  return payForm(ctx, order, declined === '3ds' ? ctx.t.secureFailed : declined ? ctx.t.declined : undefined);
};

function payForm(ctx: PageContext, order: Order, message?: string, status = 200): PageResult {
  const { t } = ctx;
  return {
    kind: 'page',
    status,
    head: orderHead(ctx, `${orderPath(order)}/pay`, t.payTitle),
    body: (
      <section class="pay">
        <h1>{t.payTitle}</h1>
        <p>{t.orderTitle(order.number)}</p>
        <p class="amount" data-amount>
          {t.payAmount(formatPrice(order.total, ctx.locale))}
        </p>
        {message && (
          <Notice kind="error">
            <p>{message}</p>
          </Notice>
        )}
        {order.payment?.provider === 'test' ? (
          <form method="post" action={ctx.href(`${orderPath(order)}/pay`)} autocomplete="off">
            <label for="card-number">{t.cardNumber}</label>
            <input
              id="card-number"
              name="cardNumber"
              inputMode="numeric"
              autocomplete="cc-number"
              pattern="[0-9 ]{12,23}"
              required
            />
            <p class="hint">{t.testCards}</p>
            <button type="submit" class="primary">
              {t.pay}
            </button>
          </form>
        ) : (
          // Another provider confirms in its own element in the browser (docs/storefront.md).
          <p>{t.errGeneric}</p>
        )}
      </section>
    ),
  };
}

function secureStep(ctx: PageContext, order: Order): PageResult {
  const { t } = ctx;
  const action = ctx.href(`${orderPath(order)}/authenticate`);
  return {
    kind: 'page',
    head: orderHead(ctx, `${orderPath(order)}/pay`, t.secureTitle),
    body: (
      <section class="pay secure">
        <h1>{t.secureTitle}</h1>
        <p>{t.secureText}</p>
        <p class="amount">{t.payAmount(formatPrice(order.total, ctx.locale))}</p>
        <form method="post" action={action} class="actions">
          <button type="submit" name="outcome" value="pass" class="primary">
            {t.securePass}
          </button>
          <button type="submit" name="outcome" value="fail">
            {t.secureFail}
          </button>
        </form>
      </section>
    ),
  };
}

/** POST /order/:number/pay: confirms the intent with the card; 3-D Secure, a decline, or done. */
export const payPost: Page = async (ctx) => {
  const order = await findOrder(ctx, ctx.params.number ?? '');
  if (!order?.payment) return toLookup(ctx);
  const cardNumber = (ctx.form.get('cardNumber') ?? '').replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(cardNumber)) return payForm(ctx, order, ctx.t.errForm, 400);
  const base = orderPath(order);
  try {
    const step = unwrap(
      await ctx.api.api.POST('/rest/payments/test/confirm', {
        body: { intentId: order.payment.intentId, cardNumber },
      }),
    ).data;
    if (step.nextAction) return { kind: 'redirect', location: ctx.href(`${base}/pay?step=3ds`) };
    if (step.declineCode) return { kind: 'redirect', location: ctx.href(`${base}/pay?declined=1`) };
  } catch (err) {
    return payForm(ctx, order, refusalOf(ctx, err).message, 409);
  }
  return { kind: 'redirect', location: ctx.href(`${base}?wait=0`) };
};

/** POST /order/:number/authenticate: the 3-D Secure answer (pass or fail). */
export const authenticatePost: Page = async (ctx) => {
  const order = await findOrder(ctx, ctx.params.number ?? '');
  if (!order?.payment) return toLookup(ctx);
  const outcome = ctx.form.get('outcome') === 'pass' ? 'pass' : 'fail';
  const base = orderPath(order);
  try {
    const step = unwrap(
      await ctx.api.api.POST('/rest/payments/test/authenticate', {
        body: { intentId: order.payment.intentId, outcome },
      }),
    ).data;
    if (step.declineCode) return { kind: 'redirect', location: ctx.href(`${base}/pay?declined=3ds`) };
  } catch (err) {
    return payForm(ctx, order, refusalOf(ctx, err).message, 409);
  }
  return { kind: 'redirect', location: ctx.href(`${base}?wait=0`) };
};

/** GET /order-lookup: a guest finds an order by its number and e-mail address. */
export const lookupPage: Page = async (ctx) => lookupForm(ctx, ctx.query.get('number') ?? '', '');

function lookupForm(ctx: PageContext, number: string, email: string, message?: string): PageResult {
  const { t } = ctx;
  return {
    kind: 'page',
    status: message ? 404 : 200,
    head: orderHead(ctx, '/order-lookup', t.lookupTitle),
    body: (
      <section class="lookup narrow">
        <h1>{t.lookupTitle}</h1>
        <p>{t.lookupText}</p>
        {message && (
          <Notice kind="error">
            <p>{message}</p>
          </Notice>
        )}
        <form method="post" action={ctx.href('/order-lookup')}>
          <label for="lookup-number">{t.orderNumber}</label>
          <input id="lookup-number" name="number" value={number} required maxLength={40} />
          <label for="lookup-email">{t.email}</label>
          <input id="lookup-email" name="email" type="email" value={email} autocomplete="email" required />
          <button type="submit" class="primary">
            {t.find}
          </button>
        </form>
      </section>
    ),
  };
}

/** POST /order-lookup: found → the order's page (remembered in the last-order cookie). */
export const lookupPost: Page = async (ctx) => {
  const number = (ctx.form.get('number') ?? '').trim().slice(0, 40);
  const email = (ctx.form.get('email') ?? '').trim().slice(0, 254);
  if (!number || !email) return lookupForm(ctx, number, email, ctx.t.lookupNotFound);
  const answer = await ctx.api.api.GET('/rest/order/lookup', { params: { query: { number, email } } });
  if (!answer.data) {
    if (answer.response.status === 429) return lookupForm(ctx, number, email, ctx.t.errRateLimited);
    return lookupForm(ctx, number, email, ctx.t.lookupNotFound);
  }
  const order = answer.data.data;
  return { kind: 'redirect', location: ctx.href(orderPath(order)), cookies: [lastOrderCookie(ctx, order)] };
};
