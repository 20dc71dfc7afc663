import assert from 'node:assert/strict';
import type { App } from '../../src/app.ts';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/db/client.ts';
import { webhookDelivery } from '../../src/modules/webhooks/webhooks.tables.ts';
import { createAdmin, login, uniqueEmail } from '../auth/auth-helpers.ts';
import {
  ADDRESS,
  fillCart,
  makeCoupon,
  makeCustomer,
  makeGift,
  makeProduct,
  makeTransport,
  placeOrder,
} from '../checkout/fixtures.ts';
import { bearer } from '../helpers/app.ts';
import { setStoredSetting, unique } from '../helpers/catalog-factories.ts';
import { testPaymentEvent } from '../../src/modules/payments/payments.tables.ts';
import { testProviderSecret } from '../../src/modules/payments/providers/test.ts';
import { signEvent } from '../../src/modules/payments/signature.ts';
import { formData, picture, uploaded } from '../media/media-fixtures.ts';

// One valid write per back-office write operation, keyed by operationId, for
// test/audit/every-write.test.ts: each fixture makes what its write needs, then says how to call
// it. A write operation without an entry here fails that test by name, so a new route comes with
// its fixture.

export interface Shop {
  app: App;
  /** A Superuser's access token: the admin every write is made as, unless a fixture says otherwise. */
  token: string;
}

export interface Write {
  params?: Record<string, string | number>;
  body?: Record<string, unknown>;
  /** Another admin's token, for a write on the caller's own account. */
  as?: { token: string; actor: string };
  /** A multipart/form-data body instead of JSON (an upload). */
  form?: { payload: Buffer; headers: Record<string, string> };
  /** The id the entry names; by default the path's `{id}`, or the created record's id. */
  entityId?: string | number;
}

type Json = Record<string, unknown>;

async function send(s: Shop, method: 'POST' | 'PUT', url: string, payload: Json): Promise<Json> {
  const res = await s.app.inject({ method, url, headers: bearer(s.token), payload });
  assert.ok(res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.body}`);
  return (res.json() as { data: Json }).data;
}

const idOf = async (s: Shop, url: string, payload: Json) => Number((await send(s, 'POST', url, payload)).id);

/** A product with two sizes, and its variants' ids. */
async function sizedProduct(s: Shop): Promise<number[]> {
  const sku = unique('SIZED');
  const product = await send(s, 'POST', '/rest/product/product', {
    name: sku,
    sku,
    price: 20,
    options: [{ name: 'Size', values: ['S', 'M', 'L'] }],
    variants: ['S', 'M'].map((size) => ({ sku: `${sku}-${size}`, options: { Size: size } })),
  });
  const res = await s.app.inject({
    method: 'GET',
    url: `/rest/product/variant?productId=${product.id}`,
    headers: bearer(s.token),
  });
  return [Number(product.id), ...(res.json() as { data: Json[] }).data.map((v) => Number(v.id))];
}

/** A customer's card order, moved as far as asked by the back office. */
async function order(s: Shop, upTo: 'pending' | 'confirmed' | 'paid and shipped') {
  const product = await makeProduct(s.app.db, { price: 1000 });
  const customer = await makeCustomer(s.app);
  const me = await fillCart(s.app, { token: customer.token }, [[product, 2]]);
  const transportId = await makeTransport(s.app.db);
  const placed = await placeOrder(s.app, me, { transportId, payWay: 'card' });
  assert.equal(placed.statusCode, 201, placed.body);
  const data = (placed.json() as { data: { id: number; lines: { id: number }[] } }).data;
  const path = `/rest/order/order/${data.id}`;
  if (upTo !== 'pending') await send(s, 'POST', `${path}/transition`, { to: 'confirmed' });
  if (upTo === 'paid and shipped') {
    await send(s, 'POST', `${path}/payment`, {});
    await send(s, 'POST', `${path}/shipment`, { carrier: 'DHL', trackingNumber: 'T1' });
  }
  return { id: data.id, lineId: data.lines[0].id };
}

/** A card order whose payment is authorized, not captured (manual capture through the test provider). */
async function authorizedOrder(s: Shop): Promise<number> {
  await setStoredSetting(s.app.db, 'payment_capture_mode', 'manual');
  const product = await makeProduct(s.app.db, { price: 1000 });
  const customer = await makeCustomer(s.app);
  const me = await fillCart(s.app, { token: customer.token }, [[product, 1]]);
  const placed = await placeOrder(s.app, me, { transportId: await makeTransport(s.app.db), payWay: 'card' });
  await setStoredSetting(s.app.db, 'payment_capture_mode', 'automatic');
  const data = (placed.json() as { data: { id: number; payment: { intentId: string } } }).data;
  const confirmed = await s.app.inject({
    method: 'POST',
    url: '/rest/payments/test/confirm',
    headers: bearer(customer.token),
    payload: { intentId: data.payment.intentId, cardNumber: '4242424242424242' },
  });
  assert.equal(confirmed.statusCode, 200, confirmed.body);
  // The job queue is off here: the provider's event is delivered by hand, as the queue would.
  for (const event of await s.app.db.select().from(testPaymentEvent)) {
    const raw = JSON.stringify(event.payload);
    await s.app.inject({
      method: 'POST',
      url: '/rest/payments/test/webhook',
      headers: {
        'content-type': 'application/json',
        'test-signature': signEvent(raw, testProviderSecret(s.app.tokens), new Date()),
      },
      payload: raw,
    });
  }
  return data.id;
}

const webhook = (s: Shop) =>
  idOf(s, '/rest/system/webhook', { url: 'http://127.0.0.1:9/hook', events: ['order.placed'] });

const address = (customerId: number) => ({ customerId, ...ADDRESS });

/** Zones and tax rates must not tie with each other: each fixture's gets a priority or country of its own. */
let distinct = 0;
const zone = (s: Shop) =>
  idOf(s, '/rest/checkout/shipping-zone', { name: 'Zone', countries: ['GR'], priority: 1000 + ++distinct });
const rate = async (s: Shop) =>
  idOf(s, '/rest/checkout/shipping-rate', {
    transportId: await makeTransport(s.app.db),
    zoneId: await zone(s),
    price: 3.5,
  });
const country = () => {
  const n = ++distinct;
  return String.fromCharCode(65 + (Math.floor(n / 26) % 26), 65 + (n % 26));
};
const taxRate = (s: Shop) =>
  idOf(s, '/rest/checkout/tax-rate', { countryAlpha2: country(), taxClass: 'standard', rate: 20 });

export const WRITE_FIXTURES: Record<string, (s: Shop) => Promise<Write>> = {
  async adminChangePassword(s) {
    const admin = await createAdmin(s.app, s.token, { roles: [4], password: 'first-password-1' });
    const { access_token } = await login(s.app, 'admin', admin.username, admin.password);
    return {
      body: { currentPassword: admin.password, newPassword: 'second-password-2' },
      as: { token: access_token, actor: String(admin.id) },
      entityId: admin.id,
    };
  },
  createAdminUser: async () => ({
    body: { username: uniqueEmail('audit'), password: 'a-long-password', roles: [4] },
  }),
  updateAdminUser: async (s) => ({
    params: { id: (await createAdmin(s.app, s.token, { roles: [4] })).id },
    body: { name: 'Renamed' },
  }),
  sendAdminUserPasswordReset: async (s) => ({
    params: { id: (await createAdmin(s.app, s.token, { roles: [4] })).id },
  }),
  setSetting: async () => ({
    params: { key: 'free_shipping_threshold' },
    body: { value: 123.45 },
    entityId: 'free_shipping_threshold',
  }),
  async resetSetting(s) {
    await send(s, 'PUT', '/rest/system/setting/gift_packaging_price', { value: 4.5 });
    return { params: { key: 'gift_packaging_price' }, entityId: 'gift_packaging_price' };
  },
  createProduct: async () => ({ body: { name: 'Audited', sku: unique('AUD'), price: 10 } }),
  updateProduct: async (s) => ({
    params: { id: await makeProduct(s.app.db) },
    body: { name: 'Renamed', costPrice: 3.5 },
  }),
  deleteProduct: async (s) => ({ params: { id: await makeProduct(s.app.db) } }),
  async createVariant(s) {
    const [productId] = await sizedProduct(s);
    return { body: { productId, sku: unique('VAR'), options: { Size: 'L' } } };
  },
  updateVariant: async (s) => ({ params: { id: (await sizedProduct(s))[1] }, body: { price: 25 } }),
  deleteVariant: async (s) => ({ params: { id: (await sizedProduct(s))[2] } }),
  createCategory: async () => ({ body: { name: unique('Category') } }),
  updateCategory: async (s) => ({
    params: { id: await idOf(s, '/rest/product/category', { name: unique('Category') }) },
    body: { name: 'Renamed' },
  }),
  deleteCategory: async (s) => ({
    params: { id: await idOf(s, '/rest/product/category', { name: unique('Category') }) },
  }),
  createTransport: async () => ({ body: { name: 'Courier', price: 4.9 } }),
  updateTransport: async (s) => ({ params: { id: await makeTransport(s.app.db) }, body: { price: 6.5 } }),
  deleteTransport: async (s) => ({ params: { id: await makeTransport(s.app.db) } }),
  createShippingZone: async () => ({
    body: { name: 'Islands', countries: ['GR'], postalCodes: { include: ['84'], exclude: [] } },
  }),
  updateShippingZone: async (s) => ({ params: { id: await zone(s) }, body: { name: 'Renamed' } }),
  deleteShippingZone: async (s) => ({ params: { id: await zone(s) } }),
  createShippingRate: async (s) => ({
    body: {
      transportId: await makeTransport(s.app.db),
      zoneId: await zone(s),
      price: 3.5,
      weightBands: [{ upToKg: 2, price: 3.5 }],
    },
  }),
  updateShippingRate: async (s) => ({ params: { id: await rate(s) }, body: { price: 4.2 } }),
  deleteShippingRate: async (s) => ({ params: { id: await rate(s) } }),
  createTaxRate: async () => ({ body: { countryAlpha2: country(), taxClass: 'reduced', rate: 13 } }),
  updateTaxRate: async (s) => ({ params: { id: await taxRate(s) }, body: { rate: 21 } }),
  deleteTaxRate: async (s) => ({ params: { id: await taxRate(s) } }),
  createCoupon: async () => ({ body: { code: unique('AUDIT'), type: 'percent', value: 10 } }),
  updateCoupon: async (s) => ({ params: { id: (await makeCoupon(s.app.db)).id }, body: { active: false } }),
  deleteCoupon: async (s) => ({ params: { id: (await makeCoupon(s.app.db)).id } }),
  createPromotion: async () => ({
    body: { name: unique('AUDIT'), kind: 'cart', action: { type: 'percent', value: 10 } },
  }),
  updatePromotion: async (s) => ({
    params: { id: await idOf(s, '/rest/checkout/promotion', { name: 'P', kind: 'cart', action: { type: 'fixed', value: 1 } }) },
    body: { active: false },
  }),
  deletePromotion: async (s) => ({
    params: { id: await idOf(s, '/rest/checkout/promotion', { name: 'P', kind: 'cart', action: { type: 'fixed', value: 1 } }) },
  }),
  createGift: async (s) => ({ body: { productIds: [await makeProduct(s.app.db)] } }),
  updateGift: async (s) => ({
    params: { id: await makeGift(s.app.db, { productIds: [await makeProduct(s.app.db)] }) },
    body: { maxQty: 2 },
  }),
  deleteGift: async (s) => ({
    params: { id: await makeGift(s.app.db, { productIds: [await makeProduct(s.app.db)] }) },
  }),
  createReel: async () => ({ body: { title: 'Reel', videoUrl: 'https://cdn.example.com/reel.mp4' } }),
  updateReel: async (s) => ({
    params: {
      id: await idOf(s, '/rest/cms/reel', { title: 'R', videoUrl: 'https://cdn.example.com/r.mp4' }),
    },
    body: { title: 'Renamed' },
  }),
  deleteReel: async (s) => ({
    params: {
      id: await idOf(s, '/rest/cms/reel', { title: 'R', videoUrl: 'https://cdn.example.com/r.mp4' }),
    },
  }),
  createSliderGroup: async () => ({ body: { name: 'Group', code: unique('group').toLowerCase() } }),
  updateSliderGroup: async (s) => ({
    params: { id: await idOf(s, '/rest/cms/slider-group', { name: 'G', code: unique('g').toLowerCase() }) },
    body: { name: 'Renamed' },
  }),
  deleteSliderGroup: async (s) => ({
    params: { id: await idOf(s, '/rest/cms/slider-group', { name: 'G', code: unique('g').toLowerCase() }) },
  }),
  createSlider: async (s) => ({ body: await slide(s) }),
  updateSlider: async (s) => ({
    params: { id: await idOf(s, '/rest/cms/slider', await slide(s)) },
    body: { title: 'Renamed' },
  }),
  deleteSlider: async (s) => ({ params: { id: await idOf(s, '/rest/cms/slider', await slide(s)) } }),
  updateCustomer: async (s) => ({ params: { id: (await makeCustomer(s.app)).id }, body: { active: false } }),
  deleteCustomer: async (s) => ({ params: { id: (await makeCustomer(s.app)).id } }),
  createAddress: async (s) => ({ body: address((await makeCustomer(s.app)).id) }),
  updateAddress: async (s) => ({
    params: { id: await idOf(s, '/rest/customer/address', address((await makeCustomer(s.app)).id)) },
    body: { city: 'Hamburg' },
  }),
  deleteAddress: async (s) => ({
    params: { id: await idOf(s, '/rest/customer/address', address((await makeCustomer(s.app)).id)) },
  }),
  transitionOrder: async (s) => ({
    params: { id: (await order(s, 'pending')).id },
    body: { to: 'confirmed' },
  }),
  shipOrder: async (s) => ({
    params: { id: (await order(s, 'confirmed')).id },
    body: { carrier: 'DHL', trackingNumber: 'T2' },
  }),
  captureOrderPayment: async (s) => ({ params: { id: await authorizedOrder(s) } }),
  markOrderPaid: async (s) => ({ params: { id: (await order(s, 'pending')).id }, body: { reference: 'r' } }),
  cancelOrder: async (s) => ({ params: { id: (await order(s, 'pending')).id }, body: { reason: 'asked' } }),
  async returnOrderLines(s) {
    const { id, lineId } = await order(s, 'paid and shipped');
    return { params: { id }, body: { lines: [{ orderLineId: lineId, qty: 1 }], restock: true } };
  },
  async adjustLoyaltyPoints(s) {
    const { id } = await makeCustomer(s.app);
    return { body: { customerId: id, delta: 5, reason: 'goodwill' }, entityId: id };
  },
  importProducts: async (s) => {
    // The answer names the job as jobId: the entry's id is the next job's.
    const [{ next }] = await queryRows<{ next: number }>(s.app.db, sql`select coalesce(max(id), 0) + 1 as next from import_job`);
    const file = 'SKU,Name,Regular price\nAUDIT-1,Audited,1.00\n';
    return { form: formData([{ name: 'file', value: file, fileName: 'products.csv' }]), entityId: next };
  },
  uploadMediaAsset: async () => ({
    form: formData([{ name: 'file', value: await picture(20, 20, 'png'), fileName: 'a.png' }]),
  }),
  updateMediaAsset: async (s) => ({ params: { id: await mediaAsset(s) }, body: { alt: 'Described' } }),
  deleteMediaAsset: async (s) => ({ params: { id: await mediaAsset(s) } }),
  createWebhook: async () => ({ body: { url: 'http://127.0.0.1:9/new', events: ['*'] } }),
  updateWebhook: async (s) => ({ params: { id: await webhook(s) }, body: { description: 'orders' } }),
  deleteWebhook: async (s) => ({ params: { id: await webhook(s) } }),
  rotateWebhookSecret: async (s) => ({ params: { id: await webhook(s) } }),
  async retryWebhookDelivery(s) {
    const webhookId = await webhook(s);
    const [delivery] = await s.app.db
      .insert(webhookDelivery)
      .values({ webhookId, eventId: webhookId, eventType: 'order.placed', status: 'dead', attempts: 10 })
      .returning({ id: webhookDelivery.id });
    return { params: { id: webhookId, deliveryId: delivery.id }, entityId: delivery.id };
  },
};

/** An uploaded image's id. */
async function mediaAsset(s: Shop): Promise<number> {
  const asset = await uploaded(s.app, bearer(s.token), await picture(20, 20, 'png'));
  return asset.id;
}

async function slide(s: Shop): Promise<Json> {
  const groupId = await idOf(s, '/rest/cms/slider-group', { name: 'G', code: unique('g').toLowerCase() });
  return { groupId, title: 'Slide', imageUrl: 'https://cdn.example.com/slide.jpg' };
}
