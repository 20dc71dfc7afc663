import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/db/client.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
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

interface Page {
  data: { id: number; customerId: number | null; status: string }[];
  pagination: {
    current_page: number;
    per_page: number;
    total: number;
    total_pages: number;
    has_next: boolean;
    has_prev: boolean;
  };
}

describe('orders: reading', () => {
  let t: TestApp;
  let transportId: number;
  let ada: { id: number; token: string };
  let bob: { id: number; token: string };
  const adaOrders: number[] = [];
  let bobOrder: number;

  async function orderFor(token: string): Promise<number> {
    const p = await makeProduct(t.app.db);
    await fillCart(t.app, { token }, [[p, 1]]);
    const res = await placeOrder(t.app, { token }, { transportId });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().data.id;
  }

  before(async () => {
    t = await startTestApp();
    transportId = await makeTransport(t.app.db);
    ada = await makeCustomer(t.app);
    bob = await makeCustomer(t.app);
    for (let i = 0; i < 17; i++) adaOrders.push(await orderFor(ada.token));
    bobOrder = await orderFor(bob.token);
  });
  after(async () => t.close());

  test('when a customer lists, then only their orders come, newest first, 15 per page by default', async () => {
    const res = await call(t.app, 'GET', '/rest/order/order', { token: ada.token });
    assert.equal(res.statusCode, 200);
    const page = res.json() as Page;
    assert.equal(page.data.length, 15);
    assert.ok(page.data.every((o) => o.customerId === ada.id));
    assert.equal(page.data[0].id, adaOrders[16]);
    assert.deepEqual(page.pagination, {
      current_page: 1,
      per_page: 15,
      total: 17,
      total_pages: 2,
      has_next: true,
      has_prev: false,
    });
    const second = (
      await call(t.app, 'GET', '/rest/order/order?page=2&limit=0', { token: ada.token })
    ).json() as Page;
    assert.equal(second.data.length, 2);
    assert.equal(second.pagination.has_prev, true);
    const empty = (await call(t.app, 'GET', '/rest/order/order?limit=', { token: ada.token })).json() as Page;
    assert.equal(empty.pagination.per_page, 15);
    const past = (await call(t.app, 'GET', '/rest/order/order?page=9', { token: ada.token })).json() as Page;
    assert.equal(past.data.length, 0);
  });

  test('when page or limit are out of range, then 400', async () => {
    for (const q of ['page=0', 'page=-1', 'limit=-1', 'limit=1.5', 'page=abc', 'status=lost']) {
      const res = await call(t.app, 'GET', `/rest/order/order?${q}`, { token: ada.token });
      assert.equal(res.statusCode, 400, q);
    }
  });

  test('when a storefront caller asks above rest_max_page_size, then it is clamped; the back office is not', async () => {
    const root = await adminToken(t.app, [1]);
    await call(t.app, 'PUT', '/rest/system/setting/rest_max_page_size', { token: root }, { value: 4 });
    try {
      const mine = (
        await call(t.app, 'GET', '/rest/order/order?limit=10', { token: ada.token })
      ).json() as Page;
      assert.equal(mine.pagination.per_page, 4);
      assert.equal(mine.data.length, 4);
      const all = (
        await call(t.app, 'GET', '/rest/order/order?limit=10', { token: await adminToken(t.app, [6]) })
      ).json() as Page;
      assert.equal(all.pagination.per_page, 10);
      assert.equal(all.pagination.total, 18);
    } finally {
      await call(t.app, 'DELETE', '/rest/system/setting/rest_max_page_size', { token: root });
    }
  });

  test("when a customer opens another's order, then 404; their own, 200", async () => {
    assert.equal(
      (await call(t.app, 'GET', `/rest/order/order/${bobOrder}`, { token: ada.token })).statusCode,
      404,
    );
    const own = await call(t.app, 'GET', `/rest/order/order/${adaOrders[0]}`, { token: ada.token });
    assert.equal(own.statusCode, 200);
    assert.equal(own.json().data.id, adaOrders[0]);
    assert.equal(
      (await call(t.app, 'GET', '/rest/order/order/2000000000', { token: ada.token })).statusCode,
      404,
    );
  });

  test('when a guest asks, then 401; an admin without the Orders role, 403; with it, every order', async () => {
    assert.equal((await call(t.app, 'GET', '/rest/order/order')).statusCode, 401);
    assert.equal((await call(t.app, 'GET', `/rest/order/order/${bobOrder}`)).statusCode, 401);
    const products = await adminToken(t.app, [5]);
    assert.equal((await call(t.app, 'GET', '/rest/order/order', { token: products })).statusCode, 403);
    const orders = await adminToken(t.app, [6]);
    const any = await call(t.app, 'GET', `/rest/order/order/${bobOrder}`, { token: orders });
    assert.equal(any.statusCode, 200);
    assert.equal(any.json().data.customerId, bob.id);
  });

  test('when the item read is asked, then the newest matching order comes, or 404', async () => {
    const item = await call(t.app, 'GET', '/rest/order/order/item?status=pending', { token: ada.token });
    assert.equal(item.statusCode, 200);
    assert.equal(item.json().data.id, adaOrders[16]);
    const none = await call(t.app, 'GET', '/rest/order/order/item?status=delivered', { token: ada.token });
    assert.equal(none.statusCode, 404);
  });

  test('when the back office filters by paymentStatus and totalAbove, then only the unpaid orders above that total come (as the dashboard asks)', async () => {
    const ops = await adminToken(t.app, [6]);
    const big = async () => {
      const p = await makeProduct(t.app.db, { price: 40_000 });
      await fillCart(t.app, { token: bob.token }, [[p, 1]]);
      const res = await placeOrder(t.app, { token: bob.token }, { transportId, payWay: 'bank_transfer' });
      assert.equal(res.statusCode, 201, res.body);
      return res.json().data as { id: number; total: number };
    };
    const unpaid = await big();
    const paid = await big();
    const pay = await call(t.app, 'POST', `/rest/order/order/${paid.id}/payment`, { token: ops }, {});
    assert.equal(pay.statusCode, 200, pay.body);
    const ids = async (query: string) => {
      const res = await call(t.app, 'GET', `/rest/order/order?${query}`, { token: ops });
      assert.equal(res.statusCode, 200, res.body);
      return (res.json() as Page).data.map((o) => o.id);
    };
    assert.equal(unpaid.total, 405);
    assert.deepEqual(await ids('paymentStatus=pending&totalAbove=300'), [unpaid.id]);
    assert.deepEqual(await ids('paymentStatus=paid&totalAbove=300'), [paid.id]);
    assert.deepEqual(await ids('paymentStatus=pending&totalAbove=404.99'), [unpaid.id]);
    assert.deepEqual(await ids('paymentStatus=pending&totalAbove=405'), [], 'strictly above');
    for (const bad of ['paymentStatus=unpaid', 'totalAbove=-1', 'totalAbove=abc']) {
      assert.equal(
        (await call(t.app, 'GET', `/rest/order/order?${bad}`, { token: ops })).statusCode,
        400,
        bad,
      );
    }
  });

  test('when the item read carries page=0 or page=3, then it still answers the first match (not 500)', async () => {
    for (const page of ['0', '3', '-1']) {
      const item = await call(t.app, 'GET', `/rest/order/order/item?page=${page}`, { token: ada.token });
      assert.equal(item.statusCode, 200, `page=${page}: ${item.body}`);
      assert.equal(item.json().data.id, adaOrders[16]);
    }
  });
});

describe('orders: transitions', () => {
  let t: TestApp;
  let transportId: number;
  let ops: string;
  const events = async (orderId: number) =>
    (
      await queryRows<{ n: number }>(
        t.app.db,
        sql`select count(*)::int as n from outbox_event where type = 'order.status_changed' and (payload->>'orderId')::int = ${orderId}`,
      )
    )[0].n;
  const move = (id: number, to: string, token = ops) =>
    call(t.app, 'POST', `/rest/order/order/${id}/transition`, { token }, { to });

  before(async () => {
    t = await startTestApp();
    transportId = await makeTransport(t.app.db);
    ops = await adminToken(t.app, [6]);
  });
  after(async () => t.close());

  async function simpleOrder(): Promise<number> {
    const p = await makeProduct(t.app.db);
    const who = await fillCart(t.app, {}, [[p, 1]]);
    const res = await placeOrder(t.app, who, { transportId, email: 'x@example.com' });
    return res.json().data.id;
  }

  test('when an order walks pending → confirmed → shipped → delivered, then each move answers 200 and records order.status_changed', async () => {
    const id = await simpleOrder();
    for (const to of ['confirmed', 'shipped', 'delivered']) {
      const res = await move(id, to);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().data.status, to);
    }
    assert.equal(await events(id), 3);
  });

  test('when a move is not allowed, then 409 ILLEGAL_TRANSITION and no event', async () => {
    const id = await simpleOrder();
    for (const to of ['shipped', 'delivered', 'pending']) {
      const res = await move(id, to);
      assert.equal(res.statusCode, 409, to);
      assert.equal(res.json().error.code, 'ILLEGAL_TRANSITION');
    }
    await move(id, 'confirmed');
    await move(id, 'shipped');
    assert.equal((await move(id, 'cancelled')).statusCode, 409, 'shipped goods are not cancelled');
    assert.equal(await events(id), 2);
  });

  test('when a customer, an admin without the role or an unknown order is used, then 403 / 403 / 404', async () => {
    const id = await simpleOrder();
    const ada = await makeCustomer(t.app);
    assert.equal((await move(id, 'confirmed', ada.token)).statusCode, 403);
    assert.equal((await move(id, 'confirmed', await adminToken(t.app, [3]))).statusCode, 403);
    assert.equal((await move(2_000_000_000, 'confirmed')).statusCode, 404);
    assert.equal((await move(id, 'lost')).statusCode, 400);
  });

  test('when an order is cancelled, then its stock, coupon use and points come back in one go, with a "returned" ledger row', async () => {
    const p = await makeProduct(t.app.db, { price: 5000, stockQty: 10 });
    const coupon = await makeCoupon(t.app.db, { usageLimit: 1 });
    const ada = await makeCustomer(t.app, 300);
    const me = { token: ada.token };
    await fillCart(t.app, me, [[p, 2]]);
    await call(t.app, 'POST', '/rest/cart/coupon', me, { code: coupon.code });
    const placed = await placeOrder(t.app, me, { transportId, redeemPoints: true });
    assert.equal(placed.statusCode, 201, placed.body);
    const id = placed.json().data.id as number;
    const state = async () =>
      (
        await queryRows<{ stock: number; used: number; points: number; redemptions: number }>(
          t.app.db,
          sql`select (select stock_qty from product where id = ${p}) as stock,
                     (select used_count from coupon where id = ${coupon.id}) as used,
                     (select loyalty_points from customer where id = ${ada.id}) as points,
                     (select count(*)::int from coupon_redemption where coupon_id = ${coupon.id}) as redemptions`,
        )
      )[0];
    assert.deepEqual(await state(), { stock: 8, used: 1, points: 0, redemptions: 1 });
    await move(id, 'confirmed');
    const cancelled = await move(id, 'cancelled');
    assert.equal(cancelled.statusCode, 200);
    assert.equal(cancelled.json().data.status, 'cancelled');
    assert.deepEqual(await state(), { stock: 10, used: 0, points: 300, redemptions: 0 });
    const ledger = await queryRows<{ delta: number; reason: string }>(
      t.app.db,
      sql`select delta, reason from loyalty_ledger where customer_id = ${ada.id} order by id`,
    );
    assert.deepEqual(ledger, [
      { delta: -300, reason: 'redeemed' },
      { delta: 300, reason: 'returned' },
    ]);
    assert.equal((await move(id, 'cancelled')).statusCode, 409, 'cancelling twice returns nothing twice');
    assert.deepEqual(await state(), { stock: 10, used: 0, points: 300, redemptions: 0 });
  });
});

describe('loyalty adjustment', () => {
  let t: TestApp;
  let admin: string;
  before(async () => {
    t = await startTestApp();
    admin = await adminToken(t.app, [3]);
  });
  after(async () => t.close());
  const adjust = (body: Record<string, unknown>, token = admin) =>
    call(t.app, 'POST', '/rest/loyalty/adjustment', { token }, body);

  test('when an admin adds or removes points, then the balance moves and an admin_adjustment ledger row is written', async () => {
    const ada = await makeCustomer(t.app);
    const add = await adjust({ customerId: ada.id, delta: 500, note: 'goodwill' });
    assert.equal(add.statusCode, 200, add.body);
    assert.equal(add.json().data.balance, 500);
    assert.equal(add.json().data.entry.reason, 'admin_adjustment');
    const remove = await adjust({ customerId: ada.id, delta: -200, note: 'correction' });
    assert.equal(remove.json().data.balance, 300);
    const sum = await queryRows<{ n: number }>(
      t.app.db,
      sql`select sum(delta)::int as n from loyalty_ledger where customer_id = ${ada.id}`,
    );
    assert.equal(sum[0].n, 300);
  });

  test('when the balance would go negative, then 422 and nothing changes', async () => {
    const ada = await makeCustomer(t.app);
    await adjust({ customerId: ada.id, delta: 100, note: 'x' });
    const res = await adjust({ customerId: ada.id, delta: -101, note: 'too much' });
    assert.equal(res.statusCode, 422);
    const rows = await queryRows<{ n: number }>(
      t.app.db,
      sql`select count(*)::int as n from loyalty_ledger where customer_id = ${ada.id}`,
    );
    assert.equal(rows[0].n, 1);
  });

  test('when the customer is unknown, the delta is 0, or the caller lacks the Admin role, then 404 / 400 / 403', async () => {
    assert.equal((await adjust({ customerId: 2_000_000_000, delta: 5, note: 'x' })).statusCode, 404);
    const ada = await makeCustomer(t.app);
    assert.equal((await adjust({ customerId: ada.id, delta: 0, note: 'x' })).statusCode, 400);
    assert.equal(
      (await adjust({ customerId: ada.id, delta: 5, note: 'x' }, await adminToken(t.app, [6]))).statusCode,
      403,
    );
    assert.equal((await adjust({ customerId: ada.id, delta: 5, note: 'x' }, ada.token)).statusCode, 403);
  });
});
