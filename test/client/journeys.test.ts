import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { SignJWT } from 'jose';
import { createShopClient, ShopApiError, unwrap } from '../../packages/client/src/index.ts';
import { startTestApp, TEST_SECRET, type TestApp } from '../helpers/app.ts';
import { testEngine } from '../helpers/database.ts';

// The typed client against a real started service (a real port, fetch): the journeys a storefront
// and a back office make, through the client's own session handling.

const ADMIN = { username: 'ops@example.com', password: 'ops-password-1', name: 'Ops', roles: [1] };
const ADDRESS = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  phone: '+49 30 1234567',
  street: 'Main Street 1',
  city: 'Berlin',
  countryAlpha2: 'DE',
  postalCode: '10115',
};

/** One line per step, printed so a run shows the journey (the closing note quotes it). */
function step(text: string): void {
  console.log(`  [client ${testEngine}] ${text}`);
}

describe('the typed client against a started service', () => {
  let t: TestApp;
  let baseUrl: string;
  const catalog: { productId?: number; transportId?: number } = {};

  before(async () => {
    t = await startTestApp({ config: { staticUsers: [ADMIN] } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;

    // The catalog the storefront journey buys from, made through the client as the back office would.
    const office = createShopClient({ baseUrl, context: 'admin' });
    await office.login(ADMIN.username, ADMIN.password);
    const product = unwrap(
      await office.api.POST('/rest/product/product', {
        body: { name: 'Client Tea', sku: `CLIENT-TEA-${Date.now()}`, price: 12.5, stockQty: 50 },
      }),
    );
    catalog.productId = product.data.id;
    const transport = unwrap(
      await office.api.POST('/rest/checkout/transport', { body: { name: 'Client Post', price: 4.9 } }),
    );
    catalog.transportId = transport.data.id;
  });
  after(() => t.close());

  test('when a shopper browses, buys as a guest, registers and logs in, then the cart follows and the orders list shows the order', async () => {
    const shop = createShopClient({ baseUrl });

    const products = unwrap(
      await shop.api.GET('/rest/product/product', { params: { query: { limit: 5, sort: '-id' } } }),
    );
    assert.ok(products.data.some((p) => p.id === catalog.productId));
    step(`browse: ${products.data.length} products, page 1 of ${products.pagination.total_pages}`);

    const productId = catalog.productId!;
    const cart = unwrap(await shop.api.POST('/rest/cart/items', { body: { productId, qty: 2 } }));
    assert.ok(shop.session.cartToken, 'the client keeps the guest cart token');
    assert.equal(cart.data.lines.length, 1);
    step(`guest cart: ${cart.data.lines.length} line, token kept (${shop.session.cartToken!.slice(0, 6)}…)`);

    const totals = unwrap(
      await shop.api.POST('/rest/v1/checkout/totals', { body: { transportId: catalog.transportId } }),
    );
    assert.equal(totals.subtotal, 25);
    step(`totals: subtotal ${totals.subtotal}, shipping ${totals.shippingCost}, total ${totals.total}`);

    const order = await shop.placeOrder({
      ...ADDRESS,
      transportId: catalog.transportId,
      email: 'guest-buyer@example.com',
      expectedTotal: totals.total,
    });
    assert.equal(order.total, totals.total);
    step(`guest order placed: #${order.id}, total ${order.total}`);

    // A second guest cart, then an account: registering does not merge, logging in does.
    unwrap(await shop.api.POST('/rest/cart/items', { body: { productId, qty: 1 } }));
    const email = `client-${Date.now()}@example.com`;
    await shop.register({ email, password: 'client-password', firstName: 'Ada', lastName: 'Lovelace' });
    assert.ok(shop.session.cartToken, 'the guest cart is kept for the next login');
    await shop.logout();

    unwrap(await shop.api.POST('/rest/cart/items', { body: { productId, qty: 3 } }));
    await shop.login(email, 'client-password');
    assert.equal(shop.session.cartToken, undefined);
    const merged = unwrap(await shop.api.GET('/rest/cart'));
    const qty = merged.data.lines.reduce((sum, line) => sum + line.qty, 0);
    assert.equal(qty, 4, "the guest cart's 1 + 3 units were merged at login");
    step(`register, logout, login with the guest cart: merged into the customer's (${qty} units)`);

    await shop.placeOrder({ ...ADDRESS, transportId: catalog.transportId });
    const orders = unwrap(await shop.api.GET('/rest/order/order'));
    assert.equal(orders.data.length, 1);
    step(`customer orders: ${orders.data.length} (their own only)`);

    // The error envelope arrives as a typed error.
    const missing = await shop.api.GET('/rest/product/product/{id}', {
      params: { path: { id: 2_000_000_000 } },
    });
    assert.throws(
      () => unwrap(missing),
      (error: unknown) => error instanceof ShopApiError && error.code === 'NOT_FOUND' && error.status === 404,
    );
    step('a missing product: ShopApiError 404 NOT_FOUND');
  });

  test('when the back office logs in, then it creates a product, lists orders and ships one', async () => {
    const office = createShopClient({ baseUrl, context: 'admin' });
    await office.login(ADMIN.username, ADMIN.password);
    const product = unwrap(
      await office.api.POST('/rest/product/product', {
        body: { name: 'Client Mug', sku: `CLIENT-MUG-${Date.now()}`, price: 8, stockQty: 5 },
      }),
    );
    step(`admin created product #${product.data.id}`);

    // An order to work on, placed by a guest.
    const guest = createShopClient({ baseUrl });
    unwrap(await guest.api.POST('/rest/cart/items', { body: { productId: product.data.id, qty: 1 } }));
    const placed = await guest.placeOrder({
      ...ADDRESS,
      transportId: catalog.transportId,
      email: 'office-case@example.com',
    });

    const orders = unwrap(await office.api.GET('/rest/order/order', { params: { query: { limit: 50 } } }));
    assert.ok(orders.data.some((o) => o.id === placed.id));
    step(`admin lists orders: ${orders.data.length} on the first page`);

    const confirmed = unwrap(
      await office.api.POST('/rest/order/order/{id}/transition', {
        params: { path: { id: placed.id } },
        body: { to: 'confirmed' },
      }),
    );
    assert.equal(confirmed.data.status, 'confirmed');
    step(`admin moved order #${placed.id} to ${confirmed.data.status}`);
  });

  test('when the access token has expired, then the client refreshes it once and repeats the call', async () => {
    const office = createShopClient({ baseUrl, context: 'admin' });
    await office.login(ADMIN.username, ADMIN.password);
    // The same session's token as the service signs it, expired a minute ago (past the leeway).
    const claims = JSON.parse(Buffer.from(office.session.accessToken!.split('.')[1], 'base64url').toString());
    const now = Math.floor(Date.now() / 1000);
    const expired = await new SignJWT({ ctx: 'admin', typ: 'access', roles: claims.roles, sid: claims.sid })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.sub)
      .setIssuer(claims.iss)
      .setAudience(claims.aud)
      .setIssuedAt(now - 900)
      .setExpirationTime(now - 60)
      .setJti(crypto.randomUUID())
      .sign(new TextEncoder().encode(TEST_SECRET));
    (office.session as { accessToken?: string }).accessToken = expired;
    const listed = unwrap(await office.api.GET('/rest/order/order', { params: { query: { limit: 1 } } }));
    assert.ok(Array.isArray(listed.data));
    assert.notEqual(office.session.accessToken, expired);
    step('expired access token: refreshed with the refresh token, call repeated');
  });

  test('when the client logs out and in again, then it keeps the device token and sends it with the login and the password change', async () => {
    const seen: { path: string; device: string | null }[] = [];
    const recording: typeof fetch = (input, init) => {
      const request = new Request(input, init);
      seen.push({ path: new URL(request.url).pathname, device: request.headers.get('x-device-token') });
      return fetch(request);
    };
    const office = createShopClient({ baseUrl, context: 'admin', fetch: recording });
    await office.login(ADMIN.username, ADMIN.password);
    const device = office.session.deviceToken;
    assert.ok(device, 'the login answered a device token');
    await office.logout();
    assert.equal(office.session.deviceToken, device, 'logout keeps it');
    await office.login(ADMIN.username, ADMIN.password);
    const logins = seen.filter((s) => s.path === '/rest/auth/admin/login');
    assert.deepEqual(
      logins.map((s) => s.device),
      [null, device],
    );
    // A configured admin's password is changed in the configuration (422); the header goes all the same.
    await office.api.POST('/rest/auth/admin/password', {
      body: { currentPassword: ADMIN.password, newPassword: 'ops-password-2' },
    });
    assert.equal(seen.at(-1)?.device, office.session.deviceToken);
    step('device token kept across logout, sent with the next login and the password change');
  });

  test('when place-order is repeated with the same Idempotency-Key, then the first order is answered again', async () => {
    const shop = createShopClient({ baseUrl });
    unwrap(await shop.api.POST('/rest/cart/items', { body: { productId: catalog.productId!, qty: 1 } }));
    const body = { ...ADDRESS, transportId: catalog.transportId, email: 'twice@example.com' };
    const first = await shop.placeOrder(body, 'client-key-1');
    const again = await shop.placeOrder(body, 'client-key-1');
    assert.equal(again.id, first.id);
    step(`same Idempotency-Key: order #${first.id} answered again, not placed twice`);
  });
});
