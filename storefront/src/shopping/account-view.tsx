import type { Schemas } from '@shop/client';
import { formatPrice } from '../i18n.ts';
import type { PageContext } from '../types.ts';
import type { Customer } from './session.ts';
import { Notice } from './totals-view.tsx';

/** The account's page: greeting and points, orders, saved addresses (with a form), wishlist. */
export function AccountView(props: {
  ctx: PageContext;
  customer: Customer;
  orders: Schemas['Order'][];
  addresses: Schemas['Address'][];
  wishlist: Schemas['WishlistEntry'][];
  notice?: string;
}) {
  const { ctx, customer, orders, addresses, wishlist } = props;
  const { t } = ctx;
  const money = (amount: number) => formatPrice(amount, ctx.locale);
  const date = new Intl.DateTimeFormat(ctx.locale === 'el' ? 'el-GR' : 'en-IE', { dateStyle: 'medium' });
  return (
    <section class="account">
      <h1>{t.accountTitle}</h1>
      {props.notice && (
        <Notice kind="info">
          <p>{props.notice}</p>
        </Notice>
      )}
      <p>
        {t.hello(customer.firstName)} · {customer.email} ·{' '}
        <span data-points>{t.points(customer.loyaltyPoints)}</span>
      </p>
      <form method="post" action={ctx.href('/account/logout')}>
        <button type="submit">{t.logout}</button>
      </form>

      <h2>{t.orders}</h2>
      {orders.length === 0 ? (
        <p>{t.noOrders}</p>
      ) : (
        <table class="account-orders" data-orders>
          <thead>
            <tr>
              <th scope="col">{t.orderNumber}</th>
              <th scope="col">{t.placedOn}</th>
              <th scope="col">{t.orderStatus}</th>
              <th scope="col">{t.total}</th>
            </tr>
          </thead>
          <tbody>
            {orders.map((order) => (
              <tr>
                <td>
                  <a href={ctx.href(`/order/${encodeURIComponent(order.number)}`)}>{order.number}</a>
                </td>
                <td>{date.format(new Date(order.createdAt))}</td>
                <td>
                  {t.statuses[order.status] ?? order.status}
                  {order.shipments.length > 0 && ` · ${t.shipments}: ${order.shipments.length}`}
                  {order.returns.length > 0 && ` · ${t.returns}: ${order.returns.length}`}
                </td>
                <td>{money(order.total)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}

      <h2>{t.addresses}</h2>
      {addresses.length === 0 ? (
        <p>{t.noAddresses}</p>
      ) : (
        <ul class="addresses">
          {addresses.map((address) => (
            <li>
              <address>
                {address.firstName} {address.lastName}, {address.street}, {address.postalCode} {address.city}{' '}
                {address.countryAlpha2}
              </address>
              {address.isDefault && <span class="tag">{t.defaultAddress}</span>}
              <form method="post" action={ctx.href('/account/addresses/delete')}>
                <input type="hidden" name="id" value={address.id} />
                <button type="submit" class="link">
                  {t.remove}
                </button>
              </form>
            </li>
          ))}
        </ul>
      )}
      <details>
        <summary>{t.newAddress}</summary>
        <form method="post" action={ctx.href('/account/addresses')} class="address-form">
          {(
            [
              ['firstName', t.firstName, 'given-name', customer.firstName],
              ['lastName', t.lastName, 'family-name', customer.lastName],
              ['phone', t.phone, 'tel', customer.phone ?? ''],
              ['street', t.street, 'street-address', ''],
              ['city', t.city, 'address-level2', ''],
              ['postalCode', t.postalCode, 'postal-code', ''],
              ['countryAlpha2', t.country, 'country', 'GR'],
            ] as const
          ).map(([name, label, autocomplete, value]) => (
            <>
              <label for={`address-${name}`}>{label}</label>
              <input
                id={`address-${name}`}
                name={name}
                value={value}
                autocomplete={autocomplete}
                required={name !== 'phone'}
              />
            </>
          ))}
          <button type="submit">{t.addAddress}</button>
        </form>
      </details>

      <h2>{t.wishlist}</h2>
      {wishlist.length === 0 ? (
        <p>{t.wishlistEmpty}</p>
      ) : (
        <ul class="wishlist" data-wishlist>
          {wishlist.map((entry) => (
            <li>
              {entry.product ? (
                <a href={ctx.href(`/p/${encodeURIComponent(entry.product.slug)}`)}>{entry.product.name}</a>
              ) : (
                `#${entry.productId}`
              )}
              {entry.product && ` · ${money(entry.product.price)}`}
              <form method="post" action={ctx.href('/wishlist/remove')}>
                <input type="hidden" name="productId" value={entry.productId} />
                <button type="submit" class="link">
                  {t.remove}
                </button>
              </form>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** A new password's label and input (registration, reset): at least 8 characters, as the API asks. */
export function NewPasswordField({ id, label }: { id: string; label: string }) {
  return (
    <>
      <label for={id}>{label}</label>
      <input id={id} name="password" type="password" autocomplete="new-password" required minLength={8} />
    </>
  );
}
