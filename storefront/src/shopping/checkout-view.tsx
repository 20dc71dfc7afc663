import type { Schemas } from '@shop/client';
import { formatPrice } from '../i18n.ts';
import type { PageContext } from '../types.ts';
import { type CheckoutDraft, COUNTRIES } from './checkout-form.ts';
import type { Refusal } from './refusals.ts';
import type { Customer } from './session.ts';
import { Notice, type Totals, TotalsView } from './totals-view.tsx';

export interface CheckoutOptions {
  cart: Schemas['Cart'];
  transports: Schemas['Transport'][];
  methods: Schemas['PaymentMethod'][];
  gifts: Schemas['Gift'][];
  addresses: Schemas['Address'][];
  customer: Customer | undefined;
}

/** The checkout form; `data-reprice` fields post "Update totals" by themselves with the script. */
export function CheckoutForm(props: {
  ctx: PageContext;
  draft: CheckoutDraft;
  options: CheckoutOptions;
  totals: Totals;
  refusal: Refusal | undefined;
}) {
  const { ctx, draft, options, totals, refusal } = props;
  const { t } = ctx;
  const money = (amount: number) => formatPrice(amount, ctx.locale);
  const countries = new Intl.DisplayNames([ctx.locale], { type: 'region' });
  return (
    <section class="checkout">
      <h1>{t.checkoutTitle}</h1>
      {refusal && (
        <Notice kind="error">
          <p>{refusal.message}</p>
          {refusal.shortLines && refusal.shortLines.length > 0 && (
            <ul data-short-lines>
              {refusal.shortLines.map((short) => (
                <li>
                  {t.errOutOfStockLine(
                    options.cart.lines.find((line) => line.variantId === short.variantId)?.name ??
                      `#${short.variantId}`,
                    short.availableQty,
                  )}
                </li>
              ))}
            </ul>
          )}
        </Notice>
      )}
      {!options.customer && (
        <p>
          <a href={ctx.href('/account/login?next=checkout')}>{t.loginToUsePoints}</a>
        </p>
      )}
      <form method="post" action={ctx.href('/cart/coupon')} class="coupon">
        <input type="hidden" name="back" value="checkout" />
        {options.cart.couponCode ? (
          <p>
            {totals.couponError
              ? t.couponNotApplied(options.cart.couponCode)
              : t.couponApplied(options.cart.couponCode)}{' '}
            <button type="submit" class="link" formaction={ctx.href('/cart/coupon/remove')}>
              {t.removeCoupon}
            </button>
          </p>
        ) : (
          <>
            <label for="coupon-code">{t.couponCode}</label>
            <input id="coupon-code" name="code" autocomplete="off" maxLength={64} required />
            <button type="submit">{t.applyCoupon}</button>
          </>
        )}
      </form>
      <form method="post" action={ctx.href('/checkout')} class="checkout-form" data-checkout>
        <input type="hidden" name="idempotencyKey" value={draft.idempotencyKey} />
        <input type="hidden" name="expectedTotal" value={totals.total.toFixed(2)} />
        <fieldset>
          <legend>{t.contact}</legend>
          <Field
            name="email"
            label={t.email}
            value={draft.email}
            type="email"
            autocomplete="email"
            required
          />
        </fieldset>
        <fieldset>
          <legend>{t.address}</legend>
          {options.addresses.length > 0 && (
            <div class="saved-addresses">
              <label for="addressId">{t.savedAddress}</label>
              <select id="addressId" name="addressId">
                {options.addresses.map((address) => (
                  <option value={address.id}>
                    {[address.label, address.street, address.city].filter(Boolean).join(', ')}
                  </option>
                ))}
              </select>
              <button type="submit" name="action" value="address" formnovalidate>
                {t.update}
              </button>
            </div>
          )}
          <Field
            name="firstName"
            label={t.firstName}
            value={draft.firstName}
            autocomplete="given-name"
            required
          />
          <Field
            name="lastName"
            label={t.lastName}
            value={draft.lastName}
            autocomplete="family-name"
            required
          />
          <Field name="phone" label={t.phone} value={draft.phone} type="tel" autocomplete="tel" required />
          <Field name="street" label={t.street} value={draft.street} autocomplete="street-address" required />
          <Field name="city" label={t.city} value={draft.city} autocomplete="address-level2" required />
          <Field name="postalCode" label={t.postalCode} value={draft.postalCode} autocomplete="postal-code" />
          <label for="countryAlpha2">{t.country}</label>
          <select id="countryAlpha2" name="countryAlpha2" autocomplete="country" data-reprice>
            {COUNTRIES.map((code) => (
              <option value={code} selected={code === draft.countryAlpha2}>
                {countries.of(code) ?? code}
              </option>
            ))}
          </select>
        </fieldset>
        <fieldset data-transports>
          <legend>{t.shippingMethod}</legend>
          {options.transports.map((transport) => (
            <label class="choice">
              <input
                type="radio"
                name="transportId"
                value={transport.id}
                checked={transport.id === draft.transportId}
                data-reprice
              />
              <span>
                {transport.name}
                {transport.description && <small> {transport.description}</small>}
              </span>
              <span class="amount">{transport.price > 0 ? money(transport.price) : t.free}</span>
            </label>
          ))}
        </fieldset>
        <fieldset data-payments>
          <legend>{t.paymentMethod}</legend>
          {options.methods.map((method) => (
            <label class="choice">
              <input
                type="radio"
                name="payWay"
                value={method.code}
                checked={method.code === draft.payWay}
                data-reprice
              />
              <span>{method.name}</span>
            </label>
          ))}
        </fieldset>
        <fieldset>
          <legend>{t.extras}</legend>
          {options.customer && totals.loyalty.pointSystemEnabled && (
            <p>{t.pointsBalance(totals.loyalty.balance)}</p>
          )}
          {options.customer && (totals.loyalty.canRedeem || draft.redeemPoints) && (
            <label class="choice">
              <input
                type="checkbox"
                name="redeemPoints"
                value="1"
                checked={draft.redeemPoints}
                data-reprice
              />
              <span>
                {t.usePoints(totals.loyalty.redeemablePoints, money(totals.loyalty.redeemableCash))}
              </span>
            </label>
          )}
          <label class="choice">
            <input
              type="checkbox"
              name="giftPackaging"
              value="1"
              checked={draft.giftPackaging}
              data-reprice
            />
            <span>{t.addGiftPackaging}</span>
          </label>
          {options.gifts.map((gift) => (
            <fieldset class="gifts">
              <legend>
                {gift.name || t.freeGifts}: {t.freeGiftFrom(money(gift.minSubtotal))}
              </legend>
              <label class="choice">
                <input
                  type="radio"
                  name="gift"
                  value=""
                  checked={draft.gift?.giftId !== gift.id}
                  data-reprice
                />
                <span>{t.noGift}</span>
              </label>
              {(gift.products ?? []).map((product) => (
                <label class="choice">
                  <input
                    type="radio"
                    name="gift"
                    value={`${gift.id}:${product.id}`}
                    checked={draft.gift?.giftId === gift.id && draft.gift.productId === product.id}
                    data-reprice
                  />
                  <span>{product.name}</span>
                </label>
              ))}
              {totals.giftErrors?.some((error) => error.giftId === gift.id) && (
                <p class="warning">{t.errGift}</p>
              )}
            </fieldset>
          ))}
        </fieldset>
        <h2>{t.summary}</h2>
        <TotalsView ctx={ctx} totals={totals} showShipping={draft.transportId !== undefined} />
        <div class="actions">
          <button type="submit" name="action" value="update" formnovalidate data-update>
            {t.updateTotals}
          </button>
          <button type="submit" name="action" value="place" class="primary">
            {t.placeOrder}
          </button>
        </div>
      </form>
    </section>
  );
}

function Field(props: {
  name: string;
  label: string;
  value: string;
  type?: 'text' | 'email' | 'tel';
  autocomplete?: string;
  required?: boolean;
}) {
  return (
    <div class="field">
      <label for={`field-${props.name}`}>{props.label}</label>
      <input
        id={`field-${props.name}`}
        name={props.name}
        type={(props.type ?? 'text') as 'text'}
        value={props.value}
        autocomplete={props.autocomplete}
        required={props.required}
      />
    </div>
  );
}
