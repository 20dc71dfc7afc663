// The cart: its lines with options and images, quantities and removal as forms, the coupon, the
// free-shipping banner of storefront-config and the figures of the totals endpoint (none computed
// here). Every change is a POST answered by a redirect back to the cart (post, redirect, get).
import { type Schemas, unwrap } from '@shop/client';
import { formatPrice } from '../i18n.ts';
import { type Refusal, refusalOf } from '../shopping/refusals.ts';
import { Notice, type Totals, TotalsView } from '../shopping/totals-view.tsx';
import type { Page, PageContext, PageResult } from '../types.ts';

type Cart = Schemas['Cart'];

export const cartPage: Page = async (ctx) => renderCart(ctx);

/** The cart and its quote without a shipping method or payment (no shipping or delivery cost). */
async function renderCart(ctx: PageContext, refusal?: Refusal): Promise<PageResult> {
  const [cart, totals, config] = await Promise.all([
    ctx.api.api.GET('/rest/cart').then((answer) => unwrap(answer).data),
    ctx.api.api.POST('/rest/v1/checkout/totals', { body: {} }).then(unwrap),
    ctx.config(),
  ]);
  const { t } = ctx;
  const threshold = config?.shipping.freeShippingThreshold ?? 0;
  return {
    kind: 'page',
    status: refusal?.status ?? 200,
    head: {
      title: t.cartTitle,
      canonical: ctx.href('/cart'),
      noindex: true,
      alternates: { el: ctx.href('/cart', 'el'), en: ctx.href('/cart', 'en') },
    },
    body: (
      <section class="cart">
        <h1>{t.cartTitle}</h1>
        {refusal && <RefusalNotice ctx={ctx} refusal={refusal} cart={cart} />}
        {ctx.query.has('added') && !refusal && <Notice kind="info">{t.addedToCart}</Notice>}
        {cart.lines.length === 0 ? (
          <p>
            {t.cartEmpty} <a href={ctx.href('/')}>{t.continueShopping}</a>
          </p>
        ) : (
          <>
            {threshold > 0 && (
              <p class="banner" data-free-shipping>
                {totals.payableBeforePoints >= threshold
                  ? t.freeShippingReached
                  : t.freeShippingFrom(formatPrice(threshold, ctx.locale))}
              </p>
            )}
            <CartLines ctx={ctx} cart={cart} />
            <div class="cart-side">
              <CouponForm ctx={ctx} cart={cart} totals={totals} />
              <h2>{t.summary}</h2>
              <TotalsView ctx={ctx} totals={totals} showShipping={false} />
              <a class="button primary" href={ctx.href('/checkout')}>
                {t.toCheckout}
              </a>
            </div>
          </>
        )}
      </section>
    ),
  };
}

/** One form per line (the quantity) and one per removal: each works without JavaScript. */
function CartLines(props: { ctx: PageContext; cart: Cart }) {
  const { ctx } = props;
  const { t } = ctx;
  return (
    <table class="cart-lines">
      <thead>
        <tr>
          <th scope="col">{t.product}</th>
          <th scope="col">{t.unitPrice}</th>
          <th scope="col">{t.quantity}</th>
          <th scope="col">{t.lineTotal}</th>
        </tr>
      </thead>
      <tbody>
        {props.cart.lines.map((line) => (
          <tr data-line={line.variantId}>
            <td class="line-product">
              {line.image && <img src={thumbnail(line.image)} alt="" width={80} height={80} loading="lazy" />}
              <div>
                <a href={ctx.href(`/p/${encodeURIComponent(line.slug)}`)}>{line.name}</a>
                {Object.entries(line.options).map(([name, value]) => (
                  <span class="option">
                    {name}: {value}
                  </span>
                ))}
                {!line.available && <p class="warning">{t.lineUnavailable}</p>}
                {line.available && line.stockStatus !== 'in_stock' && (
                  <p class="warning">{t.onlyLeft(line.availableQty)}</p>
                )}
              </div>
            </td>
            <td>{formatPrice(line.unitPrice, ctx.locale)}</td>
            <td>
              <form method="post" action={ctx.href('/cart/update')} class="qty">
                <input type="hidden" name="variantId" value={line.variantId} />
                <label class="visually-hidden" for={`qty-${line.variantId}`}>
                  {t.quantityOf(line.name)}
                </label>
                <input
                  id={`qty-${line.variantId}`}
                  type="number"
                  name="qty"
                  value={line.qty}
                  min="0"
                  max="999"
                  inputMode="numeric"
                />
                <button type="submit">{t.update}</button>
              </form>
              <form method="post" action={ctx.href('/cart/remove')}>
                <input type="hidden" name="variantId" value={line.variantId} />
                <button type="submit" class="link" aria-label={t.removeLine(line.name)}>
                  {t.remove}
                </button>
              </form>
            </td>
            <td data-line-total>{formatPrice(line.lineTotal, ctx.locale)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function CouponForm(props: { ctx: PageContext; cart: Cart; totals: Totals }) {
  const { ctx, cart, totals } = props;
  const { t } = ctx;
  if (cart.couponCode) {
    return (
      <form method="post" action={ctx.href('/cart/coupon/remove')} class="coupon">
        <p data-coupon>
          {totals.couponError ? t.couponNotApplied(cart.couponCode) : t.couponApplied(cart.couponCode)}
        </p>
        <button type="submit" class="link">
          {t.removeCoupon}
        </button>
      </form>
    );
  }
  return (
    <form method="post" action={ctx.href('/cart/coupon')} class="coupon">
      <label for="coupon-code">{t.couponCode}</label>
      <input id="coupon-code" name="code" autocomplete="off" maxLength={64} required />
      <button type="submit">{t.applyCoupon}</button>
    </form>
  );
}

function RefusalNotice(props: { ctx: PageContext; refusal: Refusal; cart: Cart }) {
  const { ctx, refusal, cart } = props;
  return (
    <Notice kind="error">
      <p>{refusal.message}</p>
      {refusal.shortLines && refusal.shortLines.length > 0 && (
        <ul>
          {refusal.shortLines.map((short) => (
            <li>
              {ctx.t.errOutOfStockLine(
                cart.lines.find((line) => line.variantId === short.variantId)?.name ?? `#${short.variantId}`,
                short.availableQty,
              )}
            </li>
          ))}
        </ul>
      )}
    </Notice>
  );
}

/** A small copy of a media image (one of the fixed widths of docs/media.md); another URL as it is. */
function thumbnail(url: string): string {
  return url.startsWith('/media/') ? `${url}?w=128` : url;
}

/** A whole number of units from a form field, or undefined. */
function units(value: string | null): number | undefined {
  if (value === null || !/^\d{1,4}$/.test(value.trim())) return undefined;
  return Number(value.trim());
}

/** Runs a cart change; back to the cart, or the cart again with what the API refused. */
async function change(ctx: PageContext, run: () => Promise<unknown>, after = '/cart'): Promise<PageResult> {
  try {
    await run();
  } catch (err) {
    return renderCart(ctx, refusalOf(ctx, err));
  }
  return { kind: 'redirect', location: ctx.href(after) };
}

/** POST /cart/items: the product page's form (variantId, qty). */
export const addToCart: Page = async (ctx) => {
  const variantId = units(ctx.form.get('variantId'));
  const qty = units(ctx.form.get('qty') ?? '1');
  if (!variantId || !qty)
    return renderCart(ctx, { status: 400, code: 'VALIDATION_FAILED', message: ctx.t.errForm });
  return change(
    ctx,
    async () => unwrap(await ctx.api.api.POST('/rest/cart/items', { body: { variantId, qty } })),
    '/cart?added=1',
  );
};

/** POST /cart/update: a line's new quantity (0 removes it). */
export const updateCartLine: Page = async (ctx) => {
  const id = units(ctx.form.get('variantId'));
  const qty = units(ctx.form.get('qty'));
  if (id === undefined || qty === undefined)
    return renderCart(ctx, { status: 400, code: 'VALIDATION_FAILED', message: ctx.t.errForm });
  return change(ctx, async () =>
    unwrap(await ctx.api.api.PATCH('/rest/cart/items/{id}', { params: { path: { id } }, body: { qty } })),
  );
};

/** POST /cart/remove: a line out of the cart. */
export const removeCartLine: Page = async (ctx) => {
  const id = units(ctx.form.get('variantId'));
  if (id === undefined) return { kind: 'redirect', location: ctx.href('/cart') };
  return change(ctx, async () =>
    unwrap(await ctx.api.api.DELETE('/rest/cart/items/{id}', { params: { path: { id } } })),
  );
};

/** POST /cart/coupon: a coupon code on the cart. */
export const applyCoupon: Page = async (ctx) => {
  const code = (ctx.form.get('code') ?? '').trim();
  if (!code) return { kind: 'redirect', location: ctx.href('/cart') };
  const back = ctx.form.get('back') === 'checkout' ? '/checkout' : '/cart';
  return change(
    ctx,
    async () => unwrap(await ctx.api.api.POST('/rest/cart/coupon', { body: { code } })),
    back,
  );
};

/** POST /cart/coupon/remove */
export const removeCoupon: Page = async (ctx) => {
  const back = ctx.form.get('back') === 'checkout' ? '/checkout' : '/cart';
  return change(ctx, async () => unwrap(await ctx.api.api.DELETE('/rest/cart/coupon')), back);
};
