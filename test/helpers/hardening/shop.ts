import { randomUUID } from 'node:crypto';
import { http } from './server.ts';

// A shop over real HTTP for the crash, fault and soak scenarios: a product of known stock, a
// transport, guest orders (no registration, so bursts are cheap) and the invariants read back.

export interface Shop {
  productId: number;
  transportId: number;
  initialStock: number;
}

const ADDRESS = {
  firstName: 'Crash',
  lastName: 'Test',
  phone: '+49 30 1234567',
  street: 'Teststr. 1',
  city: 'Berlin',
  countryAlpha2: 'DE',
  postalCode: '10115',
  payWay: 'card',
};

export async function seedShop(
  base: string,
  admin: string,
  stock: number,
  sku = `HARD-${randomUUID().slice(0, 8)}`,
): Promise<Shop> {
  const product = await http(base, 'POST', '/rest/product/product', {
    token: admin,
    body: { name: `Hardening ${sku}`, sku, price: 12.5, stockQty: stock, weightKg: 0.5, active: true },
  });
  if (product.status !== 201) throw new Error(`product: ${product.status} ${product.text}`);
  const transport = await http(base, 'POST', '/rest/checkout/transport', {
    token: admin,
    body: { name: `Courier ${sku}`, price: 4.9, active: true },
  });
  if (transport.status !== 201) throw new Error(`transport: ${transport.status} ${transport.text}`);
  return {
    productId: (product.json as { data: { id: number } }).data.id,
    transportId: (transport.json as { data: { id: number } }).data.id,
    initialStock: stock,
  };
}

export interface OrderAttempt {
  /** The place-order status (0 when the connection failed). */
  status: number;
  orderId?: number;
  qty: number;
  /** A step before place-order failed (cart); nothing was ordered. */
  cartFailed?: boolean;
}

/** One guest buys `qty` units: cart, then place-order with an idempotency key (retried once on a network error). */
export async function guestOrder(
  base: string,
  shop: Shop,
  qty: number,
  signal?: AbortSignal,
): Promise<OrderAttempt> {
  let cartToken = '';
  try {
    const cart = await http(base, 'POST', '/rest/cart/items', {
      body: { productId: shop.productId, qty },
      signal,
    });
    cartToken = cart.headers.get('x-cart-token') ?? '';
    if (cart.status >= 300 || !cartToken) return { status: cart.status, qty, cartFailed: true };
  } catch {
    return { status: 0, qty, cartFailed: true };
  }
  const key = randomUUID();
  const body = { ...ADDRESS, email: `guest-${key.slice(0, 8)}@example.com`, transportId: shop.transportId };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const res = await http(base, 'POST', '/rest/checkout/place-order', {
        body,
        headers: { 'x-cart-token': cartToken, 'idempotency-key': key },
        signal,
      });
      const orderId = res.status === 201 ? (res.json as { data: { id: number } }).data.id : undefined;
      return { status: res.status, orderId, qty };
    } catch {
      if (signal?.aborted) break;
    }
  }
  return { status: 0, qty };
}

export interface OrderRow {
  id: number;
  status: string;
  lines: { productId: number; qty: number }[];
}

/** Every order, read through the back office (paged). */
export async function allOrders(base: string, admin: string): Promise<OrderRow[]> {
  const rows: OrderRow[] = [];
  for (let page = 1; page < 1000; page++) {
    const res = await http(base, 'GET', `/rest/order/order?limit=500&page=${page}`, { token: admin });
    if (res.status !== 200) throw new Error(`orders: ${res.status} ${res.text}`);
    const body = res.json as { data: OrderRow[]; pagination: { has_next: boolean } };
    rows.push(...body.data);
    if (!body.pagination.has_next) break;
  }
  return rows;
}

export async function stockOf(base: string, admin: string, productId: number): Promise<number> {
  const res = await http(base, 'GET', `/rest/product/product/${productId}`, { token: admin });
  if (res.status !== 200) throw new Error(`product: ${res.status} ${res.text}`);
  return (res.json as { data: { stockQty: number } }).data.stockQty;
}

/** Units of the product in orders that hold stock (every state but cancelled). */
export function soldOf(orders: OrderRow[], productId: number): number {
  return orders
    .filter((o) => o.status !== 'cancelled')
    .flatMap((o) => o.lines)
    .filter((l) => l.productId === productId)
    .reduce((n, l) => n + l.qty, 0);
}
