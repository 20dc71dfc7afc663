import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/db/client.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { setStoredSetting } from '../helpers/catalog-factories.ts';
import {
  adminToken,
  call,
  fillCart,
  makeCoupon,
  makeCustomer,
  makeProduct,
  makeTransport,
  placeOrder,
} from '../checkout/fixtures.ts';

interface OrderLine {
  id: number;
  productId: number;
  qty: number;
}
interface Order {
  id: number;
  number: string;
  status: string;
  paymentStatus: string;
  paid: number;
  refunded: number;
  total: number;
  email: string;
  totals: { couponDiscount: number; pointsCash: number; shippingCost: number };
  pointsSpent: number;
  lines: OrderLine[];
  statusHistory: { from: string | null; to: string; at: string; by: string; reason: string | null }[];
  shipments: { carrier: string; trackingNumber: string; trackingUrl: string | null }[];
  returns: {
    amount: number;
    points: number;
    restock: boolean;
    lines: { orderLineId: number; amount: number }[];
  }[];
}

describe('after the order: payment, shipment, cancellation, returns', () => {
  let t: TestApp;
  let transportId: number;
  let ops: string;
  const stock = async (productId: number) =>
    (
      await queryRows<{ n: number }>(
        t.app.db,
        sql`select stock_qty as n from product where id = ${productId}`,
      )
    )[0].n;
  const points = async (customerId: number) =>
    (
      await queryRows<{ n: number }>(
        t.app.db,
        sql`select loyalty_points as n from customer where id = ${customerId}`,
      )
    )[0].n;
  const post = (path: string, payload: unknown, token = ops) => call(t.app, 'POST', path, { token }, payload);

  before(async () => {
    t = await startTestApp();
    transportId = await makeTransport(t.app.db, { price: 500 });
    ops = await adminToken(t.app, [6]);
    // 100 points are worth 1.00, so 400 points pay 4.00.
    await setStoredSetting(t.app.db, 'loyalty_reward_cash_per_unit', 1);
  });
  after(async () => t.close());

  async function couponAndPointsOrder() {
    const a = await makeProduct(t.app.db, { price: 1000, stockQty: 10 });
    const b = await makeProduct(t.app.db, { price: 2001, stockQty: 10 });
    const coupon = await makeCoupon(t.app.db, { type: 'fixed', value: 500 });
    const customer = await makeCustomer(t.app, 400);
    const me = { token: customer.token };
    await fillCart(t.app, me, [
      [a, 3],
      [b, 1],
    ]);
    assert.equal((await call(t.app, 'POST', '/rest/cart/coupon', me, { code: coupon.code })).statusCode, 200);
    const placed = await placeOrder(t.app, me, { transportId, payWay: 'card', redeemPoints: true });
    assert.equal(placed.statusCode, 201, placed.body);
    return { order: placed.json().data as Order, customer, a, b };
  }

  test('when a card order is paid, shipped and returned in two parts, then each line refunds its gross less its coupon and points shares, to the cent', async () => {
    const { order, customer, a, b } = await couponAndPointsOrder();
    assert.deepEqual(
      [order.totals.couponDiscount, order.totals.pointsCash, order.pointsSpent, order.total],
      [5, 4, 400, 46.01],
    );
    assert.equal(order.paymentStatus, 'pending');
    assert.deepEqual(
      order.statusHistory.map((h) => [h.from, h.to, h.by]),
      [[null, 'pending', 'customer']],
    );
    const [lineA, lineB] = order.lines;
    const path = `/rest/order/order/${order.id}`;

    const early = await post(`${path}/return`, { lines: [{ orderLineId: lineA.id, qty: 1 }], restock: true });
    assert.equal(early.statusCode, 409, 'nothing shipped yet');
    assert.equal(
      (await post(`${path}/transition`, { to: 'confirmed', reason: 'stock checked' })).statusCode,
      200,
    );
    const shipped = await post(`${path}/shipment`, {
      carrier: 'ACS',
      trackingNumber: 'ACS 123/45',
      trackingUrl: 'https://track.example.com/ACS12345',
    });
    assert.equal(shipped.statusCode, 200, shipped.body);
    assert.equal(shipped.json().data.status, 'shipped');
    assert.deepEqual(
      shipped.json().data.shipments.map((s: Order['shipments'][0]) => s.trackingNumber),
      ['ACS 123/45'],
    );
    const unpaid = await post(`${path}/return`, {
      lines: [{ orderLineId: lineA.id, qty: 1 }],
      restock: true,
    });
    assert.equal(unpaid.statusCode, 409, 'nothing was paid, so nothing is refunded');
    assert.match(unpaid.json().error.message, /payment/);

    const paid = await post(`${path}/payment`, { reference: 'card 4242' });
    assert.equal(paid.statusCode, 200, paid.body);
    assert.deepEqual([paid.json().data.paymentStatus, paid.json().data.paid], ['paid', 46.01]);
    assert.equal((await post(`${path}/payment`, {})).statusCode, 409, 'paid once');

    const stockA = await stock(a);
    const first = await post(`${path}/return`, {
      lines: [{ orderLineId: lineA.id, qty: 1 }],
      restock: true,
      reason: 'too small',
    });
    assert.equal(first.statusCode, 201, first.body);
    let o = first.json().data as Order;
    // Coupon 5.00 over 30.00/20.01 → 3.00/2.00; points' cash 4.00 over 27.00/18.01 → 2.40/1.60;
    // line A: 30.00 − 3.00 − 2.40 = 24.60 over 3 units = 8.20 each, 240 points = 80 each.
    assert.deepEqual([o.returns[0].amount, o.returns[0].points], [8.2, 80]);
    assert.deepEqual([o.paymentStatus, o.refunded], ['partially_refunded', 8.2]);
    assert.equal(await stock(a), stockA + 1);
    assert.equal(await points(customer.id), 80);

    const stockB = await stock(b);
    const rest = await post(`${path}/return`, {
      lines: [
        { orderLineId: lineA.id, qty: 2 },
        { orderLineId: lineB.id, qty: 1 },
      ],
      restock: false,
    });
    assert.equal(rest.statusCode, 201, rest.body);
    o = rest.json().data as Order;
    assert.deepEqual(
      o.returns[1].lines.map((l) => l.amount),
      [16.4, 16.41],
    );
    // Everything returned: what was paid for the goods, never the shipping (46.01 − 5.00).
    assert.equal(o.refunded, 41.01);
    assert.equal(await points(customer.id), 400, 'every point back');
    assert.equal(await stock(b), stockB, 'restock: false');

    const again = await post(`${path}/return`, { lines: [{ orderLineId: lineB.id, qty: 1 }], restock: true });
    assert.equal(again.statusCode, 422);
    assert.equal(again.json().error.details[0].field, 'lines.0.qty');
    const foreign = await post(`${path}/return`, {
      lines: [{ orderLineId: 2_000_000, qty: 1 }],
      restock: true,
    });
    assert.equal(foreign.statusCode, 422);

    // The back-office list shows the order as its own page does: lines, history, shipments, returns.
    const shown = (await call(t.app, 'GET', path, { token: ops })).json().data as Order;
    const listed = (
      await call(t.app, 'GET', `/rest/order/order?number=${order.number}`, { token: ops })
    ).json().data as Order[];
    assert.deepEqual(listed, [shown]);
    assert.equal(shown.returns.length, 2);
    assert.equal(shown.shipments.length, 1);
  });

  test('when a return is refused half-way, then nothing of it is kept (stock, points, payment)', async () => {
    const { order, customer, a } = await couponAndPointsOrder();
    const path = `/rest/order/order/${order.id}`;
    await post(`${path}/transition`, { to: 'confirmed' });
    await post(`${path}/shipment`, { carrier: 'ELTA', trackingNumber: 'EL1' });
    const before = [await stock(a), await points(customer.id)];
    const res = await post(`${path}/return`, {
      lines: [{ orderLineId: order.lines[0].id, qty: 1 }],
      restock: true,
    });
    assert.equal(res.statusCode, 409);
    assert.deepEqual([await stock(a), await points(customer.id)], before);
    const shown = (await call(t.app, 'GET', path, { token: ops })).json().data as Order;
    assert.deepEqual([shown.returns.length, shown.refunded], [0, 0]);
  });

  test('when a customer cancels their pending order with a reason, then stock and points come back, the history says who and why', async () => {
    const { order, customer, a } = await couponAndPointsOrder();
    const stockA = await stock(a);
    const other = await makeCustomer(t.app);
    const path = `/rest/order/order/${order.id}/cancel`;
    assert.equal((await post(path, { reason: 'x' }, other.token)).statusCode, 404, "another's order");
    const res = await post(path, { reason: 'ordered twice' }, customer.token);
    assert.equal(res.statusCode, 200, res.body);
    const o = res.json().data as Order;
    assert.equal(o.status, 'cancelled');
    assert.deepEqual(
      o.statusHistory.map((h) => [h.from, h.to, h.by, h.reason]),
      [
        [null, 'pending', 'customer', null],
        ['pending', 'cancelled', 'customer', 'ordered twice'],
      ],
    );
    assert.equal(await stock(a), stockA + 3);
    assert.equal(await points(customer.id), 400);
    const events = await queryRows<{ type: string; reason: string }>(
      t.app.db,
      sql`select type, payload->>'reason' as reason from outbox_event
          where (payload->>'orderId')::int = ${order.id} and type like 'order.%' and type <> 'order.placed' order by id`,
    );
    assert.deepEqual(events, [
      { type: 'order.status_changed', reason: 'ordered twice' },
      { type: 'order.cancelled', reason: 'ordered twice' },
    ]);
  });

  test('when a customer tries to cancel a confirmed order, then 409; the back office may, and a paid order is refunded in full', async () => {
    const { order, customer } = await couponAndPointsOrder();
    const path = `/rest/order/order/${order.id}`;
    await post(`${path}/transition`, { to: 'confirmed' });
    await post(`${path}/payment`, {});
    const refused = await post(`${path}/cancel`, {}, customer.token);
    assert.equal(refused.statusCode, 409);
    const res = await post(`${path}/cancel`, { reason: 'out of stock at the supplier' });
    assert.equal(res.statusCode, 200, res.body);
    const o = res.json().data as Order;
    assert.deepEqual([o.status, o.paymentStatus, o.refunded], ['cancelled', 'refunded', 46.01]);
    assert.deepEqual(o.statusHistory.at(-1), {
      from: 'confirmed',
      to: 'cancelled',
      at: o.statusHistory.at(-1)!.at,
      by: 'static:ops@example.com',
      reason: 'out of stock at the supplier',
    });
    const mine = (await call(t.app, 'GET', path, { token: customer.token })).json().data as Order;
    assert.equal(mine.statusHistory.at(-1)!.by, 'shop', "a customer does not see the admin's name");
    assert.equal((await post(`${path}/payment`, {})).statusCode, 409, 'a cancelled order takes no payment');
  });

  test('when a cash-on-delivery order is delivered, then it is paid', async () => {
    const p = await makeProduct(t.app.db, { price: 1500 });
    const who = await fillCart(t.app, {}, [[p, 1]]);
    const placed = await placeOrder(t.app, who, {
      transportId,
      payWay: 'delivery',
      email: 'cod@example.com',
    });
    const id = placed.json().data.id;
    for (const to of ['confirmed', 'shipped']) await post(`/rest/order/order/${id}/transition`, { to });
    const res = await post(`/rest/order/order/${id}/transition`, { to: 'delivered' });
    const o = res.json().data as Order;
    assert.deepEqual([o.paymentStatus, o.paid], ['paid', o.total]);
  });

  test('when a customer, a guest or an admin without Orders ships, pays or returns, then 403 / 401 / 403', async () => {
    const { order, customer } = await couponAndPointsOrder();
    const products = await adminToken(t.app, [5]);
    for (const [action, body] of [
      ['shipment', { carrier: 'A', trackingNumber: '1' }],
      ['payment', {}],
      ['return', { lines: [{ orderLineId: order.lines[0].id, qty: 1 }], restock: true }],
    ] as const) {
      const path = `/rest/order/order/${order.id}/${action}`;
      assert.equal((await post(path, body, customer.token)).statusCode, 403, `${action} customer`);
      assert.equal((await call(t.app, 'POST', path, {}, body)).statusCode, 401, `${action} guest`);
      assert.equal((await post(path, body, products)).statusCode, 403, `${action} products admin`);
    }
  });

  test('when back-office moves are made, then the audit log keeps who, what and the values before and after', async () => {
    const { order } = await couponAndPointsOrder();
    const path = `/rest/order/order/${order.id}`;
    await post(`${path}/transition`, { to: 'confirmed', reason: 'called the customer' });
    await post(`${path}/payment`, { reference: 'TRX-1' });
    const admin = await adminToken(t.app, [3]);
    const res = await call(t.app, 'GET', `/rest/system/audit?entity=order&entityId=${order.id}`, {
      token: admin,
    });
    assert.equal(res.statusCode, 200, res.body);
    const entries = res.json().data as { actor: string; action: string; changes: Record<string, unknown> }[];
    assert.deepEqual(
      entries.map((e) => [e.actor, e.action]),
      [
        ['static:ops@example.com', 'payment'],
        ['static:ops@example.com', 'transition'],
      ],
    );
    assert.deepEqual(entries[1].changes, {
      status: { before: 'pending', after: 'confirmed' },
      reason: { before: null, after: 'called the customer' },
    });
    assert.deepEqual(entries[0].changes.paid, { before: 0, after: 46.01 });
    assert.equal((await call(t.app, 'GET', '/rest/system/audit', { token: ops })).statusCode, 403);
  });
});

describe('guest order lookup', () => {
  let t: TestApp;
  let transportId: number;

  before(async () => {
    t = await startTestApp({
      config: {
        rateLimit: { enabled: true, loginPerAccount: 3, loginPerAccountAllIps: 100, loginPerIp: 100 },
      },
    });
    transportId = await makeTransport(t.app.db);
  });
  after(async () => t.close());

  async function guestOrder(email: string): Promise<Order> {
    const p = await makeProduct(t.app.db);
    const who = await fillCart(t.app, {}, [[p, 2]]);
    const placed = await placeOrder(t.app, who, { transportId, email });
    assert.equal(placed.statusCode, 201, placed.body);
    return placed.json().data;
  }
  const lookup = (number: string, email: string) =>
    call(
      t.app,
      'GET',
      `/rest/order/lookup?number=${encodeURIComponent(number)}&email=${encodeURIComponent(email)}`,
    );

  test('when a guest gives the number and the e-mail in any case, then the order comes in the shape of a customer’s own', async () => {
    const order = await guestOrder('Guest.One@example.com');
    const res = await lookup(order.number, 'guest.one@EXAMPLE.com');
    assert.equal(res.statusCode, 200, res.body);
    const found = res.json().data as Order;
    assert.equal(found.id, order.id);
    assert.deepEqual(Object.keys(found).sort(), Object.keys(order).sort());
    assert.deepEqual(
      found.statusHistory.map((h) => h.by),
      ['guest'],
    );
  });

  test('when the number and e-mail are those of a registered customer’s order, then 404 as for an unknown order', async () => {
    const customer = await makeCustomer(t.app);
    const p = await makeProduct(t.app.db);
    await fillCart(t.app, { token: customer.token }, [[p, 1]]);
    const placed = await placeOrder(t.app, { token: customer.token }, { transportId });
    assert.equal(placed.statusCode, 201, placed.body);
    const order = placed.json().data as Order;
    assert.equal(order.email, customer.email);
    const res = await lookup(order.number, customer.email);
    assert.equal(res.statusCode, 404, res.body);
    assert.deepEqual(res.json().error, {
      code: 'NOT_FOUND',
      message: 'no order has this number and e-mail address',
    });
  });

  test('when the pair is wrong, then 404 without saying which half; the fourth failure on one number is 429', async () => {
    const order = await guestOrder('guest.two@example.com');
    const other = await guestOrder('guest.three@example.com');
    for (let i = 0; i < 3; i++) {
      const res = await lookup(order.number, 'someone@example.com');
      assert.equal(res.statusCode, 404);
    }
    const limited = await lookup(order.number, 'guest.two@example.com');
    assert.equal(limited.statusCode, 429);
    assert.ok(Number(limited.headers['retry-after']) > 0);
    assert.equal(
      (await lookup(other.number, 'guest.three@example.com')).statusCode,
      200,
      'another number is not held back',
    );
    assert.equal((await lookup('SO-1', 'x')).statusCode, 400);
  });
});
