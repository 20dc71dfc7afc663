import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import type { App } from '../../../src/app.ts';
import { bearer, sessionToken } from '../app.ts';
import type { Operation } from './openapi.ts';
import type { Fixtures } from './requests.ts';
import { validArb } from './values.ts';

// Real rows behind the hardening scenarios: customers registered through the API, back-office
// objects created through the admin API from the OpenAPI schemas, tokens minted for them.

/** A configured Superuser; the fuzz and the sweeps mint its tokens directly. */
export const ROOT = {
  username: 'hardening-root@example.com',
  password: 'hardening-root-pw',
  name: 'Root',
  roles: [1],
};

export interface Customer {
  id: number;
  email: string;
  password: string;
  token: string;
}

export function uniqueEmail(prefix: string): string {
  return `${prefix}-${randomBytes(5).toString('hex')}@example.com`;
}

/** Registers through POST /rest/auth/customer/register and mints a token for the new row. */
export async function registerCustomer(
  app: App,
  prefix = 'hardening',
  remoteAddress?: string,
): Promise<Customer> {
  const email = uniqueEmail(prefix);
  const password = 'hardening-password-1';
  const res = await app.inject({
    method: 'POST',
    url: '/rest/auth/customer/register',
    remoteAddress,
    payload: { email, password, firstName: 'Hard', lastName: 'Ening' },
  });
  if (res.statusCode !== 201) throw new Error(`register answered ${res.statusCode} ${res.body}`);
  const me = await app.inject({
    method: 'GET',
    url: '/rest/auth/customer/me',
    headers: bearer(res.json().access_token),
  });
  const id = Number((me.json() as { data: { id: number | string } }).data.id);
  const token = await sessionToken(app, { sub: String(id), ctx: 'customer' });
  return { id, email, password, token };
}

export function adminToken(app: App, roles: number[], username = ROOT.username): Promise<string> {
  return sessionToken(app, { sub: `static:${username}`, ctx: 'admin', roles });
}

/** Pool names (see values.ts) of the ids each collection's rows are referred to by. */
const POOL_OF: Record<string, string> = {
  '/rest/product/category': 'categoryId',
  '/rest/product/product': 'productId',
  '/rest/cms/slider-group': 'sliderGroupId',
  '/rest/checkout/transport': 'transportId',
  '/rest/checkout/gift': 'giftId',
  '/rest/customer/customer': 'customerId',
  '/rest/order/order': 'orderId',
};

/** Creation order: a row's references exist before it. */
const ORDER = ['/rest/product/category', '/rest/product/product', '/rest/cms/slider-group'];

export function emptyFixtures(): Fixtures {
  return { pools: new Map(), pathValues: new Map() };
}

export function remember(fx: Fixtures, collection: string, id: number | string): void {
  const values = fx.pathValues.get(collection) ?? [];
  values.push(id);
  fx.pathValues.set(collection, values);
  const pool = POOL_OF[collection];
  if (pool && typeof id === 'number') fx.pools.set(pool, [...(fx.pools.get(pool) ?? []), id]);
}

/**
 * Creates `perCollection` rows in every collection that has a POST, with valid bodies drawn
 * from the documented schema (retrying draws the business rules refuse). Customer-owned
 * collections (addresses, wishlist) are written with the customer's token.
 */
export async function createFixtures(
  app: App,
  ops: Operation[],
  tokens: { admin: string; customer: string },
  customer: Customer,
  options: { perCollection: number; seed: number },
): Promise<{ fx: Fixtures; created: Map<string, number> }> {
  const fx = emptyFixtures();
  remember(fx, '/rest/customer/customer', customer.id);
  const created = new Map<string, number>();
  const creators = ops
    .filter((op) => op.method === 'POST' && op.body && ops.some((o) => o.path === `${op.path}/{id}`))
    .sort((a, b) => rank(a.path) - rank(b.path));
  for (const [i, op] of creators.entries()) {
    const ownedByCustomer = op.path.startsWith('/rest/customer/');
    const token = ownedByCustomer ? tokens.customer : tokens.admin;
    const samples = fc.sample(validArb(op.body!, fx.pools), { seed: options.seed + i, numRuns: 40 });
    let made = 0;
    for (const sample of samples) {
      if (made >= options.perCollection) break;
      const res = await app.inject({
        method: 'POST',
        url: op.path,
        headers: bearer(token),
        payload: sample as object,
      });
      if (res.statusCode !== 201) continue;
      remember(fx, op.path, (res.json() as { data: { id: number } }).data.id);
      made++;
    }
    created.set(op.path, made);
  }
  // The wishlist is keyed by product, and settings by key: their path values are not row ids.
  for (const id of fx.pools.get('productId') ?? []) {
    await app.inject({
      method: 'POST',
      url: '/rest/customer/wishlist',
      headers: bearer(tokens.customer),
      payload: { productId: id },
    });
    remember(fx, 'productId', id);
  }
  // Guest carts, so cart and checkout operations also meet tokens that exist.
  if (ops.some((op) => op.method === 'POST' && op.path === '/rest/cart/items')) {
    for (const productId of (fx.pools.get('productId') ?? []).slice(0, 2)) {
      const res = await app.inject({
        method: 'POST',
        url: '/rest/cart/items',
        payload: { productId, qty: 1 },
      });
      const cartToken = res.headers['x-cart-token'];
      if (typeof cartToken === 'string') remember(fx, 'x-cart-token', cartToken);
    }
  }
  // An order of the customer's own, so order routes meet an id that exists and is theirs.
  if (ops.some((op) => op.method === 'POST' && op.path === '/rest/checkout/place-order')) {
    const orderId = await placeCustomerOrder(app, tokens);
    if (orderId) remember(fx, '/rest/order/order', orderId);
  }
  const settings = await app.inject({
    method: 'GET',
    url: '/rest/system/setting',
    headers: bearer(tokens.admin),
  });
  if (settings.statusCode === 200) {
    for (const entry of (settings.json() as { data: { key: string }[] }).data) remember(fx, 'key', entry.key);
  }
  return { fx, created };
}

/** The customer buys one unit of a product made for it; the order id, or undefined when refused. */
export async function placeCustomerOrder(
  app: App,
  tokens: { admin: string; customer: string },
): Promise<number | undefined> {
  const product = await app.inject({
    method: 'POST',
    url: '/rest/product/product',
    headers: bearer(tokens.admin),
    payload: {
      name: 'Fixture order',
      sku: `FIX-${randomBytes(4).toString('hex')}`,
      price: 10,
      stockQty: 100,
      active: true,
    },
  });
  const transport = await app.inject({
    method: 'POST',
    url: '/rest/checkout/transport',
    headers: bearer(tokens.admin),
    payload: { name: 'Fixture courier', price: 3 },
  });
  if (product.statusCode !== 201 || transport.statusCode !== 201) return undefined;
  const productId = (product.json() as { data: { id: number } }).data.id;
  const transportId = (transport.json() as { data: { id: number } }).data.id;
  await app.inject({
    method: 'POST',
    url: '/rest/cart/items',
    headers: bearer(tokens.customer),
    payload: { productId, qty: 1 },
  });
  const order = await app.inject({
    method: 'POST',
    url: '/rest/checkout/place-order',
    headers: bearer(tokens.customer),
    payload: {
      firstName: 'Hard',
      lastName: 'Ening',
      phone: '+49 30 1234',
      street: 'Fixture 1',
      city: 'Berlin',
      countryAlpha2: 'DE',
      postalCode: '10115',
      payWay: 'card',
      transportId,
    },
  });
  return order.statusCode === 201 ? (order.json() as { data: { id: number } }).data.id : undefined;
}

function rank(path: string): number {
  const i = ORDER.indexOf(path);
  return i === -1 ? ORDER.length : i;
}
