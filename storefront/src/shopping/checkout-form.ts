// The checkout form as plain data: what the shopper chose (a draft), read from the posted form or
// from their account, and the bodies of the totals and place-order calls made from it. No figure is
// computed here: the totals endpoint prices every draft.
import type { operations } from '@shop/client';

type TotalsBody = NonNullable<operations['getTotals']['requestBody']>['content']['application/json'];
export type PlaceOrderBody = operations['placeOrder']['requestBody']['content']['application/json'];
export type PayWay = NonNullable<TotalsBody['payWay']>;

export interface CheckoutDraft {
  email: string;
  firstName: string;
  lastName: string;
  phone: string;
  street: string;
  city: string;
  postalCode: string;
  countryAlpha2: string;
  transportId?: number;
  payWay?: PayWay;
  redeemPoints: boolean;
  giftPackaging: boolean;
  /** One free gift: its rule and product. */
  gift?: { giftId: number; productId: number };
  /** Kept in the form from its first render: a reload or a second press never orders twice. */
  idempotencyKey: string;
  /** The total the shopper was shown (decimal), sent as expectedTotal. */
  shownTotal?: number;
}

export const PAY_WAYS: readonly PayWay[] = ['delivery', 'card', 'bank_transfer'];
/** The countries the demo's shipping zones serve first; any ISO code is accepted from the form. */
export const COUNTRIES = ['GR', 'CY', 'AT', 'BE', 'BG', 'DE', 'ES', 'FR', 'IE', 'IT', 'NL', 'PT', 'RO'];

const text = (form: URLSearchParams, name: string, max = 200) => (form.get(name) ?? '').trim().slice(0, max);
const whole = (value: string | null) => (value && /^\d{1,9}$/.test(value) ? Number(value) : undefined);

export function emptyDraft(idempotencyKey: string): CheckoutDraft {
  return {
    email: '',
    firstName: '',
    lastName: '',
    phone: '',
    street: '',
    city: '',
    postalCode: '',
    countryAlpha2: 'GR',
    redeemPoints: false,
    giftPackaging: false,
    idempotencyKey,
  };
}

/** The draft of a posted checkout form; anything malformed is left out (the API says what is missing). */
export function draftFromForm(form: URLSearchParams, newKey: () => string): CheckoutDraft {
  const country = text(form, 'countryAlpha2', 2).toUpperCase();
  const payWay = form.get('payWay');
  const [giftId, productId] = (form.get('gift') ?? '').split(':').map((part) => whole(part));
  const key = text(form, 'idempotencyKey', 200);
  const shown = form.get('expectedTotal');
  return {
    email: text(form, 'email', 254),
    firstName: text(form, 'firstName'),
    lastName: text(form, 'lastName'),
    phone: text(form, 'phone', 40),
    street: text(form, 'street'),
    city: text(form, 'city'),
    postalCode: text(form, 'postalCode', 20),
    countryAlpha2: /^[A-Z]{2}$/.test(country) ? country : 'GR',
    transportId: whole(form.get('transportId')),
    payWay: PAY_WAYS.find((way) => way === payWay),
    redeemPoints: form.get('redeemPoints') === '1',
    giftPackaging: form.get('giftPackaging') === '1',
    gift: giftId && productId ? { giftId, productId } : undefined,
    idempotencyKey: key || newKey(),
    shownTotal: shown && /^\d{1,9}(\.\d{1,2})?$/.test(shown) ? Number(shown) : undefined,
  };
}

/** What the totals endpoint prices: the address's country and postal code, the choices. */
export function totalsBody(draft: CheckoutDraft): TotalsBody {
  return {
    countryAlpha2: draft.countryAlpha2,
    ...(draft.postalCode ? { postalCode: draft.postalCode } : {}),
    ...(draft.transportId ? { transportId: draft.transportId } : {}),
    ...(draft.payWay ? { payWay: draft.payWay } : {}),
    ...(draft.redeemPoints ? { redeemPoints: true } : {}),
    ...(draft.giftPackaging ? { giftPackaging: true } : {}),
    ...(draft.gift ? { selectedGifts: [{ ...draft.gift, qty: 1 }] } : {}),
  };
}

/** Place-order's body: the totals body, the address, a guest's e-mail, the total shown. */
export function placeOrderBody(draft: CheckoutDraft, guest: boolean): PlaceOrderBody {
  return {
    ...totalsBody(draft),
    firstName: draft.firstName,
    lastName: draft.lastName,
    phone: draft.phone,
    street: draft.street,
    city: draft.city,
    countryAlpha2: draft.countryAlpha2,
    ...(guest || draft.email ? { email: draft.email } : {}),
    ...(draft.shownTotal !== undefined ? { expectedTotal: draft.shownTotal } : {}),
  } as PlaceOrderBody;
}
