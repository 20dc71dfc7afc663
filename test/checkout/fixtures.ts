import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import type { App } from '../../src/app.ts';
import { sessionToken } from '../helpers/app.ts';
import type { Db } from '../../src/db/client.ts';
import { products } from '../../src/modules/catalog/catalog.tables.ts';
import { coupons, gifts } from '../../src/modules/promotions/promotions.tables.ts';
import { transports } from '../../src/modules/shipping/shipping.tables.ts';
import { customers } from '../../src/modules/customers/customer.tables.ts';

// Small factories for cart, checkout and order tests. Catalog rows are inserted directly (money in
// cents); everything under test goes through HTTP.

const uid = () => randomBytes(5).toString('hex');

export interface ProductSpec {
  price?: number;
  stockQty?: number;
  weightKg?: number;
  vatRate?: number;
  active?: boolean;
  name?: string;
  categoryId?: number | null;
  brand?: string | null;
}

export async function makeProduct(db: Db, spec: ProductSpec = {}): Promise<number> {
  const id = uid();
  const [row] = await db
    .insert(products)
    .values({
      sku: `SKU-${id}`,
      slug: `p-${id}`,
      name: spec.name ?? `Product ${id}`,
      price: spec.price ?? 1000,
      stockQty: spec.stockQty ?? 100,
      weightKg: spec.weightKg ?? 0,
      vatRate: spec.vatRate ?? 19,
      active: spec.active ?? true,
      categoryId: spec.categoryId ?? null,
      brand: spec.brand ?? null,
    })
    .returning({ id: products.id });
  return row.id;
}

export interface TransportSpec {
  price?: number;
  freeShippingThreshold?: number | null;
  includedWeightKg?: number;
  overweightPricePerKg?: number;
  codFee?: number;
  active?: boolean;
}

export async function makeTransport(db: Db, spec: TransportSpec = {}): Promise<number> {
  const [row] = await db
    .insert(transports)
    .values({
      name: `Courier ${uid()}`,
      price: spec.price ?? 500,
      freeShippingThreshold: spec.freeShippingThreshold === undefined ? null : spec.freeShippingThreshold,
      includedWeightKg: spec.includedWeightKg ?? 0,
      overweightPricePerKg: spec.overweightPricePerKg ?? 0,
      codFee: spec.codFee ?? 0,
      active: spec.active ?? true,
    })
    .returning({ id: transports.id });
  return row.id;
}

export interface CouponSpec {
  type?: 'percent' | 'fixed';
  /** Cents for fixed; hundredths of a percent for percent (1000 = 10 %). */
  value?: number;
  minSubtotal?: number;
  startsAt?: Date | null;
  endsAt?: Date | null;
  usageLimit?: number | null;
  perCustomerLimit?: number | null;
  active?: boolean;
}

export async function makeCoupon(db: Db, spec: CouponSpec = {}): Promise<{ id: number; code: string }> {
  const code = `C${uid().toUpperCase()}`;
  const [row] = await db
    .insert(coupons)
    .values({
      code,
      type: spec.type ?? 'percent',
      value: spec.value ?? 1000,
      minSubtotal: spec.minSubtotal ?? 0,
      startsAt: spec.startsAt ?? null,
      endsAt: spec.endsAt ?? null,
      usageLimit: spec.usageLimit ?? null,
      perCustomerLimit: spec.perCustomerLimit ?? null,
      active: spec.active ?? true,
    })
    .returning({ id: coupons.id });
  return { id: row.id, code };
}

export async function makeGift(
  db: Db,
  spec: { productIds: number[]; minSubtotal?: number; maxQty?: number; active?: boolean },
): Promise<number> {
  const [row] = await db
    .insert(gifts)
    .values({
      name: 'Gift',
      productIds: spec.productIds,
      minSubtotal: spec.minSubtotal ?? 0,
      maxQty: spec.maxQty ?? 1,
      active: spec.active ?? true,
    })
    .returning({ id: gifts.id });
  return row.id;
}

/** A customer row and a real access token for it. */
export async function makeCustomer(
  app: App,
  points = 0,
): Promise<{ id: number; token: string; email: string }> {
  const email = `c-${uid()}@example.com`;
  const [row] = await app.db
    .insert(customers)
    .values({ email, passwordHash: 'x', firstName: 'Ada', lastName: 'Lovelace', loyaltyPoints: points })
    .returning({ id: customers.id });
  return { id: row.id, token: await sessionToken(app, { sub: String(row.id), ctx: 'customer' }), email };
}

export function adminToken(app: App, roles: number[] = [6]): Promise<string> {
  return sessionToken(app, { sub: 'static:ops@example.com', ctx: 'admin', roles });
}

/** Who is calling: a bearer token, a guest cart token, or nobody. */
export type Who = { token?: string; cart?: string };

function headersOf(who: Who, extra: Record<string, string> = {}): Record<string, string> {
  const headers: Record<string, string> = { ...extra };
  if (who.token) headers.authorization = `Bearer ${who.token}`;
  if (who.cart) headers['x-cart-token'] = who.cart;
  return headers;
}

export function call(
  app: App,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  who: Who = {},
  payload?: unknown,
  extra?: Record<string, string>,
): Promise<LightMyRequestResponse> {
  return app.inject({ method, url, headers: headersOf(who, extra), payload: payload as object | undefined });
}

/** Adds lines to a cart; a guest without a cart token gets one, returned in `who.cart`. */
export async function fillCart(app: App, who: Who, lines: [number, number][]): Promise<Who> {
  let current = { ...who };
  for (const [productId, qty] of lines) {
    const res = await call(app, 'POST', '/rest/cart/items', current, { productId, qty });
    if (res.statusCode !== 200) throw new Error(`add to cart answered ${res.statusCode} ${res.body}`);
    const token = res.headers['x-cart-token'];
    if (typeof token === 'string') current = { ...current, cart: token };
  }
  return current;
}

export const ADDRESS = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  phone: '+49 30 1234567',
  street: 'Main Street 1',
  city: 'Berlin',
  countryAlpha2: 'DE',
  postalCode: '10115',
};

export function totals(app: App, who: Who, body: Record<string, unknown> = {}) {
  return call(app, 'POST', '/rest/v1/checkout/totals', who, body);
}

export function placeOrder(app: App, who: Who, body: Record<string, unknown>, key?: string) {
  return call(
    app,
    'POST',
    '/rest/checkout/place-order',
    who,
    { ...ADDRESS, ...body },
    key ? { 'idempotency-key': key } : {},
  );
}
