// Buying through the storefront as a shopper does, through the service's HTTP interface over the
// demo shop: the cart, the checkout with cash on delivery, the confirmation, a changed total, a
// line out of stock, and a customer's account with their orders.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildStorefront } from '../../scripts/build-storefront.mjs';
import { DEMO_CUSTOMER } from '../../src/seed/demo-shop.ts';
import { seedDemoShop } from '../../src/seed/seed.ts';
import { bearer, sessionToken, startTestApp, type TestApp } from '../helpers/app.ts';
import { fieldValue, Shopper, text } from './shopper.ts';

interface Variant {
  id: number;
  sku: string;
  price: number | null;
  inStock: boolean;
  stockQty: number;
}
interface ListedProduct {
  id: number;
  name: string;
  price: number;
  variants: Variant[];
}

describe('storefront: cart, checkout, account', () => {
  let t: TestApp;
  /** In stock, one variant, a price under the free-shipping thresholds. */
  let plain: ListedProduct;

  before(async () => {
    assert.ok(await buildStorefront(), 'the storefront builds');
    t = await startTestApp();
    await seedDemoShop(t.database.db, new Date(), t.app.mediaStorage);
    const listed = (
      await t.app.inject({
        url: '/rest/product/product?inStock=true&sort=id&limit=50&with=variants&locale=en',
      })
    ).json().data as ListedProduct[];
    const found = listed.find((p) => p.variants.length === 1 && p.price > 5 && p.price < 40);
    assert.ok(found, 'the demo shop has a plain product');
    plain = found;
  });
  after(async () => t?.close());

  const cents = (amount: string | number) => Math.round(Number(amount) * 100);

  const address = {
    email: 'guest.buyer@example.com',
    firstName: 'Eleni',
    lastName: 'Papadopoulou',
    phone: '+302101234567',
    street: 'Ermou 10',
    city: 'Athens',
    postalCode: '10563',
    countryAlpha2: 'GR',
  };

  /** A guest with `qty` of the plain product in the cart, at the checkout with cash on delivery chosen. */
  async function guestAtCheckout(
    qty = 2,
  ): Promise<{ shopper: Shopper; form: Record<string, string>; html: string }> {
    const shopper = new Shopper(t.app);
    await shopper.post('/cart/items', { variantId: String(plain.variants[0]?.id), qty: String(qty) });
    const first = await shopper.get('/checkout');
    assert.equal(first.status, 200);
    const transportId = /name="transportId" value="(\d+)"/.exec(first.html)?.[1];
    assert.ok(transportId, 'a shipping method is offered in Greece');
    const form = {
      ...address,
      transportId,
      payWay: 'delivery',
      idempotencyKey: String(fieldValue(first.html, 'idempotencyKey')),
    };
    const updated = await shopper.post('/checkout', { ...form, action: 'update' });
    assert.equal(updated.status, 200);
    return {
      shopper,
      form: { ...form, expectedTotal: String(fieldValue(updated.html, 'expectedTotal')) },
      html: updated.html,
    };
  }

  test('a guest fills the cart, reads the totals endpoint’s figures, orders cash on delivery and sees the confirmation', async () => {
    const { shopper, form, html } = await guestAtCheckout();
    // The figures shown are the totals endpoint's for the same choices, to the cent.
    const quote = await t.app.inject({
      method: 'POST',
      url: '/rest/v1/checkout/totals',
      headers: { 'x-cart-token': decodeURIComponent(String(shopper.cookies.get('shop_cart'))) },
      payload: {
        transportId: Number(form.transportId),
        payWay: 'delivery',
        countryAlpha2: 'GR',
        postalCode: '10563',
      },
    });
    const totals = quote.json();
    assert.equal(cents(String(form.expectedTotal)), cents(totals.total));
    assert.equal(totals.deliveryCost > 0, true, 'cash on delivery has its fee');
    const shown = /data-figure="total">([^<]*)</.exec(html)?.[1] ?? '';
    assert.equal(shown.replace(/[^\d]/g, ''), String(cents(totals.total)));

    const placed = await shopper.post('/checkout', { ...form, action: 'place' });
    assert.equal(placed.status, 303);
    const number = /\/en\/order\/(SO-\d+)$/.exec(placed.location ?? '')?.[1];
    assert.ok(number, `the confirmation is the order's page (${placed.location})`);
    const confirmation = await shopper.get(`/order/${number}`);
    assert.equal(confirmation.status, 200);
    const page = text(confirmation.html);
    assert.match(page, new RegExp(`Order ${number}`));
    assert.match(page, /Thank you for your order/);
    assert.match(page, new RegExp(plain.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    assert.equal(
      /data-figure="total">([^<]*)</.exec(confirmation.html)?.[1]?.replace(/[^\d]/g, ''),
      String(cents(totals.total)),
    );
    // The cart is empty now; posting the same form again (a reload) answers the same order.
    assert.match(text((await shopper.get('/cart')).html), /Your cart is empty/);
    const again = await shopper.post('/checkout', { ...form, action: 'place' });
    assert.equal(again.status, 303);
    assert.equal(again.location, placed.location, 'a reload never orders twice');
    // Another browser without the last-order cookie is sent to the lookup, and finds it with the e-mail.
    const stranger = new Shopper(t.app);
    const refused = await stranger.get(`/order/${number}`);
    assert.equal(refused.status, 303);
    assert.match(String(refused.location), /\/en\/order-lookup\?number=/);
    const wrong = await stranger.post('/order-lookup', { number, email: 'someone.else@example.com' });
    assert.equal(wrong.status, 404);
    const found = await stranger.submit('/order-lookup', { number, email: address.email });
    assert.equal(found.status, 200);
    assert.match(text(found.html), new RegExp(`Order ${number}`));
  });

  test('a total that changed since it was shown is refused, the new total shown, and ordering again works', async () => {
    const { shopper, form } = await guestAtCheckout();
    const stale = await shopper.post('/checkout', { ...form, expectedTotal: '0.01', action: 'place' });
    assert.equal(stale.status, 409);
    const newTotal = String(fieldValue(stale.html, 'expectedTotal'));
    assert.equal(newTotal, form.expectedTotal, 'the form now carries the total the API answers');
    assert.match(text(stale.html), /The total has changed to €/);
    const placed = await shopper.post('/checkout', { ...form, expectedTotal: newTotal, action: 'place' });
    assert.equal(placed.status, 303);
    assert.match(String(placed.location), /\/en\/order\/SO-\d+$/);
  });

  test('a line short of stock at the order is named, and nothing is ordered', async () => {
    const { shopper, form } = await guestAtCheckout(3);
    const admin = await sessionToken(t.app, { sub: 'static:stock@example.com', ctx: 'admin', roles: [5] });
    const variantId = plain.variants[0]?.id;
    const before = (
      await t.app.inject({ url: `/rest/product/variant/${variantId}`, headers: bearer(admin) })
    ).json().data.stockQty as number;
    const lowered = await t.app.inject({
      method: 'PATCH',
      url: `/rest/product/variant/${variantId}`,
      headers: bearer(admin),
      payload: { stockQty: 1 },
    });
    assert.equal(lowered.statusCode, 200);
    try {
      const refused = await shopper.post('/checkout', { ...form, action: 'place' });
      assert.equal(refused.status, 409);
      const page = text(refused.html);
      assert.match(page, /Not enough stock for:/);
      assert.match(page, new RegExp(`${plain.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: 1 available`));
      assert.match(text((await shopper.get('/cart')).html), /Only 1 left/, 'the cart is kept');
    } finally {
      await t.app.inject({
        method: 'PATCH',
        url: `/rest/product/variant/${variantId}`,
        headers: bearer(admin),
        payload: { stockQty: before },
      });
    }
  });

  test('a guest pays by card: a decline with a retry, the 3-D Secure step, then the order waits for the payment', async () => {
    const { shopper, form } = await guestAtCheckout(1);
    const priced = await shopper.post('/checkout', { ...form, payWay: 'card', action: 'update' });
    const placed = await shopper.post('/checkout', {
      ...form,
      payWay: 'card',
      expectedTotal: String(fieldValue(priced.html, 'expectedTotal')),
      action: 'place',
    });
    assert.equal(placed.status, 303);
    const pay = /\/en(\/order\/SO-\d+\/pay)$/.exec(String(placed.location))?.[1];
    assert.ok(pay, `a card order goes to the payment page (${placed.location})`);
    const payPage = await shopper.get(pay);
    assert.equal(payPage.status, 200);
    assert.match(text(payPage.html), /Card number/);

    const declined = await shopper.submit(pay, { cardNumber: '4000 0000 0000 0002' });
    assert.equal(declined.status, 200);
    assert.match(text(declined.html), /Your card was declined\. Try another card\./);

    const secure = await shopper.submit(pay, { cardNumber: '4000 0025 0000 3155' });
    assert.match(text(secure.html), /Confirm with your bank/);
    const authenticated = await shopper.post(pay.replace(/\/pay$/, '/authenticate'), { outcome: 'pass' });
    assert.equal(authenticated.status, 303);
    assert.match(String(authenticated.location), /\/order\/SO-\d+\?wait=0$/);
    const waiting = await shopper.get(String(authenticated.location).replace('/en', ''));
    assert.equal(waiting.status, 200);
    assert.match(text(waiting.html), /Your payment is being processed/);
    assert.match(waiting.html, /order-status-[\w-]+\.js/, 'the page asks again by itself');
    assert.doesNotMatch(waiting.html, /4000|4242/, 'no card number is shown back');
  });

  test('a customer logs in, pays part with points and cash on delivery, and finds the order in the account', async () => {
    const shopper = new Shopper(t.app);
    // A guest cart first: logging in merges it into the customer's.
    await shopper.post('/cart/items', { variantId: String(plain.variants[0]?.id), qty: '1' });
    const refused = await shopper.post('/account/login', {
      email: DEMO_CUSTOMER.email,
      password: 'wrong-password',
    });
    assert.equal(refused.status, 401);
    assert.match(text(refused.html), /The e-mail address or password is wrong/);
    const login = await shopper.post('/account/login', {
      email: DEMO_CUSTOMER.email,
      password: DEMO_CUSTOMER.password,
      next: 'checkout',
    });
    assert.equal(login.status, 303);
    assert.equal(login.location, '/en/checkout');
    assert.ok(shopper.cookies.has('shop_access') && shopper.cookies.has('shop_refresh'));
    assert.ok(!shopper.cookies.has('shop_cart'), 'the guest cart was merged into the account’s');

    const checkout = await shopper.get('/checkout');
    assert.equal(checkout.status, 200);
    const page = text(checkout.html);
    assert.match(page, new RegExp(`You have ${DEMO_CUSTOMER.loyaltyPoints} points`));
    assert.equal(fieldValue(checkout.html, 'email'), DEMO_CUSTOMER.email);
    const form = {
      email: DEMO_CUSTOMER.email,
      firstName: 'Demo',
      lastName: 'Customer',
      phone: '+302101234567',
      street: 'Ermou 10',
      city: 'Athens',
      postalCode: '10563',
      countryAlpha2: 'GR',
      transportId: String(/name="transportId" value="(\d+)"/.exec(checkout.html)?.[1]),
      payWay: 'delivery',
      redeemPoints: '1',
      idempotencyKey: String(fieldValue(checkout.html, 'idempotencyKey')),
    };
    const priced = await shopper.post('/checkout', { ...form, action: 'update' });
    assert.match(text(priced.html), /Points \(\d+\)/, 'the points are taken off');
    const pointsCash = /data-figure="pointsCash">([^<]*)</.exec(priced.html)?.[1];
    assert.ok(pointsCash);
    const placed = await shopper.post('/checkout', {
      ...form,
      expectedTotal: String(fieldValue(priced.html, 'expectedTotal')),
      action: 'place',
    });
    assert.equal(placed.status, 303, text(placed.html).slice(0, 400));
    const number = /\/order\/(SO-\d+)$/.exec(String(placed.location))?.[1];
    assert.ok(number);

    const account = await shopper.get('/account');
    assert.equal(account.status, 200);
    const accountText = text(account.html);
    assert.match(accountText, new RegExp(number));
    assert.doesNotMatch(
      accountText,
      new RegExp(`Points: ${DEMO_CUSTOMER.loyaltyPoints}\\b`),
      'points were spent',
    );
    const order = await shopper.get(`/order/${number}`);
    assert.equal(order.status, 200, 'the customer reads the order without the lookup');
    assert.equal(/data-figure="pointsCash">([^<]*)</.exec(order.html)?.[1], pointsCash);

    const out = await shopper.post('/account/logout', {});
    assert.equal(out.status, 303);
    assert.ok(!shopper.cookies.has('shop_access'));
    const after = await shopper.get('/account');
    assert.equal(after.status, 303);
    assert.equal(after.location, '/en/account/login');
  });

  test('a session that cannot be renewed sends the shopper to log in again, saying why', async () => {
    const shopper = new Shopper(t.app);
    shopper.cookies.set('shop_access', 'expired.token.value');
    shopper.cookies.set('shop_refresh', 'revoked-refresh-token');
    const account = await shopper.get('/account');
    assert.equal(account.status, 303);
    assert.equal(account.location, '/en/account/login?expired=1');
    const login = await shopper.get('/account/login?expired=1');
    assert.match(text(login.html), /Your session has ended\. Log in again; your cart is kept\./);
  });

  test('a guest registers and lands on the account; the Greek pages speak Greek', async () => {
    const shopper = new Shopper(t.app, 'el');
    const registered = await shopper.post('/account/register', {
      firstName: 'Νίκος',
      lastName: 'Νικολάου',
      email: 'nikos.register@example.com',
      password: 'a-long-password-1',
    });
    assert.equal(registered.status, 303, text(registered.html).slice(0, 300));
    const account = await shopper.get('/account?registered=1');
    assert.equal(account.status, 200);
    assert.match(text(account.html), /Γεια σας, Νίκος/);
    assert.match(text(account.html), /Δεν έχετε παραγγείλει ακόμη/);
    const again = await new Shopper(t.app, 'el').post('/account/register', {
      firstName: 'Νίκος',
      lastName: 'Νικολάου',
      email: 'nikos.register@example.com',
      password: 'a-long-password-1',
    });
    assert.equal(again.status, 409);
    assert.match(text(again.html), /Υπάρχει ήδη λογαριασμός/);
  });

  test('a guest changes quantities, applies a coupon and removes lines; every figure is the totals endpoint’s', async () => {
    const shopper = new Shopper(t.app);
    const variantId = String(plain.variants[0]?.id);
    const added = await shopper.post('/cart/items', { variantId, qty: '2' });
    assert.equal(added.status, 303);
    assert.ok(shopper.cookies.has('shop_cart'), 'the cart token is kept in a cookie');
    const quote = async () =>
      (
        await t.app.inject({
          method: 'POST',
          url: '/rest/v1/checkout/totals',
          headers: { 'x-cart-token': decodeURIComponent(String(shopper.cookies.get('shop_cart'))) },
          payload: {},
        })
      ).json();
    const figure = (html: string, name: string) =>
      new RegExp(`data-figure="${name}">([^<]*)<`).exec(html)?.[1]?.replace(/[^\d]/g, '');

    let cart = await shopper.get('/cart');
    // The line's image is a copy media serves (docs/media.md), not a width it refuses.
    const image = /<td class="line-product"><img src="([^"]+)"/.exec(cart.html)?.[1];
    assert.ok(image, 'the line shows its image');
    assert.equal((await t.app.inject({ url: image.replace(/&amp;/g, '&') })).statusCode, 200, image);
    // Browsers post a form with its origin only when the page's referrer policy lets them.
    const headers = (await t.app.inject({ url: '/en/cart' })).headers;
    assert.equal(headers['referrer-policy'], 'same-origin');
    assert.match(text(cart.html), /Free shipping on orders from €/);
    assert.equal(figure(cart.html, 'total'), String(cents((await quote()).total)));

    assert.equal((await shopper.post('/cart/update', { variantId, qty: '3' })).status, 303);
    const coupon = await shopper.post('/cart/coupon', { code: 'WELCOME10' });
    assert.equal(coupon.status, 303);
    cart = await shopper.get('/cart');
    const totals = await quote();
    assert.equal(totals.itemCount, 3);
    assert.ok(totals.couponDiscount > 0);
    assert.match(text(cart.html), /Coupon WELCOME10 applied/);
    assert.equal(figure(cart.html, 'couponDiscount'), String(cents(totals.couponDiscount)));
    assert.equal(figure(cart.html, 'total'), String(cents(totals.total)));

    const unknown = await shopper.post('/cart/coupon/remove', {});
    assert.equal(unknown.status, 303);
    const refused = await shopper.post('/cart/coupon', { code: 'EXPIRED5' });
    assert.equal(refused.status, 422);
    assert.match(text(refused.html), /This coupon cannot be used/);

    assert.equal((await shopper.post('/cart/remove', { variantId })).status, 303);
    assert.match(text((await shopper.get('/cart')).html), /Your cart is empty/);
  });
});
