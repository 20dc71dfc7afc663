// The checkout: one form (address, shipping method for that address, payment, points, gift
// packaging, a free gift) priced by the totals endpoint on every change. Without JavaScript
// "Update totals" posts the form back; "Place order" posts it with the Idempotency-Key made at the
// first render and the total shown (expectedTotal), so a reload never orders twice and a changed
// price is shown before anything is charged.
import { unwrap } from '@shop/client';
import {
  type CheckoutDraft,
  draftFromForm,
  emptyDraft,
  placeOrderBody,
  totalsBody,
} from '../shopping/checkout-form.ts';
import { CheckoutForm, type CheckoutOptions } from '../shopping/checkout-view.tsx';
import { type Refusal, refusalOf } from '../shopping/refusals.ts';
import { type Customer, currentCustomer, lastOrderCookie } from '../shopping/session.ts';
import type { Totals } from '../shopping/totals-view.tsx';
import { formatPrice } from '../i18n.ts';
import type { Page, PageContext, PageResult } from '../types.ts';

const newKey = () => globalThis.crypto.randomUUID();

export const checkoutPage: Page = async (ctx) => {
  const customer = await currentCustomer(ctx);
  const draft = emptyDraft(newKey());
  if (customer) {
    const addresses = unwrap(
      await ctx.api.api.GET('/rest/customer/address', { params: { query: { limit: 20 } } }),
    ).data;
    const chosen = addresses.find((address) => address.isDefault) ?? addresses[0];
    Object.assign(draft, {
      email: customer.email,
      firstName: customer.firstName,
      lastName: customer.lastName,
      phone: customer.phone ?? '',
    });
    if (chosen) fillAddress(draft, chosen);
  }
  return renderCheckout(ctx, draft, customer);
};

/** POST /checkout: "Update totals", "Use this address" or "Place order". */
export const checkoutPost: Page = async (ctx) => {
  const customer = await currentCustomer(ctx);
  const draft = draftFromForm(ctx.form, newKey);
  const action = ctx.form.get('action');
  if (action === 'address' && customer) {
    const id = Number(ctx.form.get('addressId'));
    const answer =
      Number.isInteger(id) && id > 0
        ? await ctx.api.api.GET('/rest/customer/address/{id}', { params: { path: { id } } })
        : undefined;
    if (answer?.data) fillAddress(draft, answer.data.data);
  }
  if (action !== 'place') return renderCheckout(ctx, draft, customer);
  try {
    const order = await ctx.api.placeOrder(placeOrderBody(draft, !customer), draft.idempotencyKey);
    const number = encodeURIComponent(order.number);
    const next = order.payWay === 'card' && order.payment ? `/order/${number}/pay` : `/order/${number}`;
    return { kind: 'redirect', location: ctx.href(next), cookies: [lastOrderCookie(ctx, order)] };
  } catch (err) {
    return renderCheckout(ctx, draft, customer, refusalOf(ctx, err));
  }
};

function fillAddress(
  draft: CheckoutDraft,
  address: {
    firstName: string;
    lastName: string;
    phone: string | null;
    street: string;
    city: string;
    postalCode: string;
    countryAlpha2: string;
  },
): void {
  draft.firstName = address.firstName;
  draft.lastName = address.lastName;
  draft.phone = address.phone ?? draft.phone;
  draft.street = address.street;
  draft.city = address.city;
  draft.postalCode = address.postalCode;
  draft.countryAlpha2 = address.countryAlpha2;
}

async function renderCheckout(
  ctx: PageContext,
  draft: CheckoutDraft,
  customer: Customer | undefined,
  refusal?: Refusal,
): Promise<PageResult> {
  const api = ctx.api.api;
  const [cart, transports, methods, gifts, addresses] = await Promise.all([
    api.GET('/rest/cart').then((answer) => unwrap(answer).data),
    api
      .GET('/rest/checkout/transport', {
        params: { query: { countryAlpha2: draft.countryAlpha2, sort: 'position', limit: 20 } },
      })
      .then((answer) => unwrap(answer).data),
    api.GET('/rest/checkout/payment-methods').then((answer) => unwrap(answer).data),
    api
      .GET('/rest/checkout/gift', { params: { query: { with: 'products', limit: 10 } } })
      .then((answer) => answer.data?.data ?? []),
    customer
      ? api
          .GET('/rest/customer/address', { params: { query: { limit: 20 } } })
          .then((a) => a.data?.data ?? [])
      : Promise.resolve([]),
  ]);
  if (cart.lines.length === 0 && !refusal) return { kind: 'redirect', location: ctx.href('/cart') };
  // A choice the address does not offer (another country) falls back to the first one offered.
  if (!transports.some((transport) => transport.id === draft.transportId))
    draft.transportId = transports[0]?.id;
  if (!methods.some((method) => method.code === draft.payWay)) draft.payWay = methods[0]?.code;
  if (!customer) draft.redeemPoints = false;
  const { totals, quoteRefusal } = await quote(ctx, draft);
  const shown = refusal ?? quoteRefusal;
  if (shown?.code === 'TOTAL_CHANGED')
    shown.message = ctx.t.errTotalChanged(formatPrice(totals.total, ctx.locale));
  const options: CheckoutOptions = { cart, transports, methods, gifts, addresses, customer };
  return {
    kind: 'page',
    status: shown?.status ?? 200,
    head: {
      title: ctx.t.checkoutTitle,
      canonical: ctx.href('/checkout'),
      noindex: true,
      alternates: { el: ctx.href('/checkout', 'el'), en: ctx.href('/checkout', 'en') },
    },
    scripts: ['checkout'],
    body: <CheckoutForm ctx={ctx} draft={draft} options={options} totals={totals} refusal={shown} />,
  };
}

/**
 * The quote of the draft. A choice the API refuses to price (cash on delivery over its cap, a
 * method that does not ship there) is shown as a refusal, with the quote without that choice.
 */
async function quote(
  ctx: PageContext,
  draft: CheckoutDraft,
): Promise<{ totals: Totals; quoteRefusal?: Refusal }> {
  const priced = (body: ReturnType<typeof totalsBody>) =>
    ctx.api.api.POST('/rest/v1/checkout/totals', { body }).then(unwrap);
  try {
    return { totals: await priced(totalsBody(draft)) };
  } catch (err) {
    const quoteRefusal = refusalOf(ctx, err);
    const { transportId: _t, payWay: _p, ...rest } = totalsBody(draft);
    return { totals: await priced(rest), quoteRefusal };
  }
}
