import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/db/client.ts';
import {
  adminToken,
  call,
  fillCart,
  makeCustomer,
  makeProduct,
  makeTransport,
  placeOrder,
} from '../checkout/fixtures.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

// Loyalty points move only with a ledger row (docs/checkout.md "Loyalty ledger"): never through a
// customer write, adjustments name the admin, the ledger sums to the balance, and a balance the
// int4 column cannot hold is refused with nothing written.

const INT4_MAX = 2_147_483_647;

interface LedgerRow {
  id: number;
  customerId: number;
  delta: number;
  reason: string;
  orderId: number | null;
  note: string | null;
  actor: string | null;
}

describe('loyalty: balance, adjustments and the ledger', () => {
  let t: TestApp;
  let admin: string;
  let marketing: string;
  let productsOnly: string;

  before(async () => {
    t = await startTestApp();
    admin = await adminToken(t.app, [3]);
    marketing = await adminToken(t.app, [8]);
    productsOnly = await adminToken(t.app, [5]);
  });
  after(() => t.close());

  const adjust = (body: Record<string, unknown>, token = admin) =>
    call(t.app, 'POST', '/rest/loyalty/adjustment', { token }, body);
  const ledger = (query: string, token: string) =>
    call(t.app, 'GET', `/rest/loyalty/ledger${query}`, { token });
  const state = async (customerId: number) =>
    (
      await queryRows<{ balance: number; sum: number; rows: number }>(
        t.app.db,
        sql`select (select loyalty_points from customer where id = ${customerId}) as balance,
                   (select coalesce(sum(delta), 0)::int from loyalty_ledger where customer_id = ${customerId}) as sum,
                   (select count(*)::int from loyalty_ledger where customer_id = ${customerId}) as rows`,
      )
    )[0];

  test('when a customer write names loyaltyPoints, then 400 "read-only" and the balance is unchanged', async () => {
    const ada = await makeCustomer(t.app);
    await adjust({ customerId: ada.id, delta: 40, reason: 'welcome' });
    for (const payload of [{ loyaltyPoints: 99_999 }, { loyaltyPoints: 99_999, firstName: 'Eve' }]) {
      const res = await call(t.app, 'PATCH', `/rest/customer/customer/${ada.id}`, { token: admin }, payload);
      assert.equal(res.statusCode, 400, res.body);
      assert.equal(res.json().error.code, 'VALIDATION_FAILED');
      assert.match(res.json().error.message, /loyaltyPoints is read-only/);
    }
    assert.deepEqual(await state(ada.id), { balance: 40, sum: 40, rows: 1 });
    const name = await call(
      t.app,
      'PATCH',
      `/rest/customer/customer/${ada.id}`,
      { token: admin },
      { firstName: 'Eve' },
    );
    assert.equal(name.statusCode, 200, 'other fields stay writable');
    assert.equal(name.json().data.loyaltyPoints, 40);
  });

  test('when Admin or Marketing adjusts, then a ledger row names the admin and the ledger sums to the balance', async () => {
    const ada = await makeCustomer(t.app);
    const add = await adjust({ customerId: ada.id, delta: 500, reason: 'goodwill' });
    assert.equal(add.statusCode, 200, add.body);
    assert.equal(add.json().data.balance, 500);
    assert.equal(add.json().data.entry.actor, 'static:ops@example.com');
    assert.equal(add.json().data.entry.note, 'goodwill');
    const alias = await adjust({ customerId: ada.id, delta: -120, note: 'correction' }, marketing);
    assert.equal(alias.statusCode, 200, alias.body);
    assert.equal(alias.json().data.balance, 380);
    const rows = await queryRows<{ delta: number; reason: string; note: string; actor: string }>(
      t.app.db,
      sql`select delta, reason, note, actor from loyalty_ledger where customer_id = ${ada.id} order by id`,
    );
    assert.deepEqual(rows, [
      { delta: 500, reason: 'admin_adjustment', note: 'goodwill', actor: 'static:ops@example.com' },
      { delta: -120, reason: 'admin_adjustment', note: 'correction', actor: 'static:ops@example.com' },
    ]);
    assert.deepEqual(await state(ada.id), { balance: 380, sum: 380, rows: 2 });
  });

  test('when the reason is missing, differs from note, or the caller lacks Admin/Marketing, then 400 / 400 / 403 and nothing moves', async () => {
    const ada = await makeCustomer(t.app);
    const missing = await adjust({ customerId: ada.id, delta: 5 });
    assert.equal(missing.statusCode, 400);
    assert.equal(missing.json().error.details[0].field, 'reason');
    assert.equal((await adjust({ customerId: ada.id, delta: 5, reason: 'a', note: 'b' })).statusCode, 400);
    assert.equal((await adjust({ customerId: ada.id, delta: '5', reason: 'typed' })).statusCode, 400);
    assert.equal((await adjust({ customerId: ada.id, delta: 5, reason: 'x' }, productsOnly)).statusCode, 403);
    assert.equal((await adjust({ customerId: ada.id, delta: 5, reason: 'x' }, ada.token)).statusCode, 403);
    assert.deepEqual(await state(ada.id), { balance: 0, sum: 0, rows: 0 });
  });

  test('when the ledger is read, then Admin and Marketing see rows newest first, paginated; Products-only is 403', async () => {
    const ada = await makeCustomer(t.app);
    for (const delta of [10, 20, 30]) await adjust({ customerId: ada.id, delta, reason: `+${delta}` });
    for (const token of [admin, marketing]) {
      const res = await ledger(`?customerId=${ada.id}&limit=2`, token);
      assert.equal(res.statusCode, 200, res.body);
      const page = res.json() as { data: LedgerRow[]; pagination: Record<string, unknown> };
      assert.deepEqual(
        page.data.map((r) => r.delta),
        [30, 20],
      );
      assert.equal(page.data[0].actor, 'static:ops@example.com');
      assert.deepEqual(page.pagination, {
        current_page: 1,
        per_page: 2,
        total: 3,
        total_pages: 2,
        has_next: true,
        has_prev: false,
      });
      const second = (await ledger(`?customerId=${ada.id}&limit=2&page=2`, token)).json();
      assert.deepEqual(
        second.data.map((r: LedgerRow) => r.delta),
        [10],
      );
    }
    const all = (await ledger('?limit=1000000000000', admin)).json();
    assert.ok(all.pagination.total >= 3, 'without customerId, every customer’s rows');
    assert.equal((await ledger(`?customerId=${ada.id}`, productsOnly)).statusCode, 403);
    assert.equal((await call(t.app, 'GET', '/rest/loyalty/ledger')).statusCode, 401);
    assert.equal((await ledger('?customerId=0x10', admin)).statusCode, 400);
  });

  test('when a customer reads the ledger, then only their own rows, without the admin’s name; another customer’s id is 404', async () => {
    const ada = await makeCustomer(t.app);
    const bob = await makeCustomer(t.app);
    await adjust({ customerId: ada.id, delta: 7, reason: 'ada' });
    await adjust({ customerId: bob.id, delta: 9, reason: 'bob' });
    for (const query of ['', `?customerId=${ada.id}`, '?limit=1000000000000']) {
      const res = await ledger(query, ada.token);
      assert.equal(res.statusCode, 200, res.body);
      const rows = res.json().data as LedgerRow[];
      assert.deepEqual(
        rows.map((r) => [r.customerId, r.delta, r.note, r.actor]),
        [[ada.id, 7, 'ada', null]],
      );
    }
    assert.equal((await ledger('?limit=1000000000000', ada.token)).json().pagination.per_page, 1000);
    const other = await ledger(`?customerId=${bob.id}`, ada.token);
    assert.equal(other.statusCode, 404);
    assert.doesNotMatch(other.body, /bob/);
  });

  test('when an adjustment would push a balance past int4, then 422 and balance and ledger are unchanged', async () => {
    const ada = await makeCustomer(t.app);
    // 21 adjustments of the largest delta: 2,100,000,000 points, all in the ledger.
    for (let i = 0; i < 21; i++) {
      const res = await adjust({ customerId: ada.id, delta: 100_000_000, reason: `step ${i}` });
      assert.equal(res.statusCode, 200, res.body);
    }
    const before = await state(ada.id);
    assert.deepEqual(before, { balance: 2_100_000_000, sum: 2_100_000_000, rows: 21 });
    const over = await adjust({ customerId: ada.id, delta: 100_000_000, reason: 'one too many' });
    assert.equal(over.statusCode, 422, over.body);
    assert.equal(over.json().error.code, 'UNPROCESSABLE');
    assert.doesNotMatch(over.body, /integer|22003|loyalty_points/);
    assert.equal((await adjust({ customerId: ada.id, delta: INT4_MAX, reason: 'x' })).statusCode, 400);
    assert.deepEqual(await state(ada.id), before);
  });

  test('when a cancellation would return points past int4, then 422 and the order, balance and ledger are unchanged', async () => {
    const transportId = await makeTransport(t.app.db);
    const p = await makeProduct(t.app.db, { price: 5000, stockQty: 10 });
    const ada = await makeCustomer(t.app);
    await adjust({ customerId: ada.id, delta: 100_000_000, reason: 'for the order' });
    await fillCart(t.app, { token: ada.token }, [[p, 1]]);
    const placed = await placeOrder(t.app, { token: ada.token }, { transportId, redeemPoints: true });
    assert.equal(placed.statusCode, 201, placed.body);
    const order = placed.json().data as { id: number; pointsSpent: number };
    assert.ok(order.pointsSpent > 0, 'the order spent points');
    // Top the balance up to the last point the column holds.
    let balance = (await state(ada.id)).balance;
    while (balance < INT4_MAX) {
      const delta = Math.min(100_000_000, INT4_MAX - balance);
      const res = await adjust({ customerId: ada.id, delta, reason: 'top up' });
      assert.equal(res.statusCode, 200, res.body);
      balance = res.json().data.balance;
    }
    const before = await state(ada.id);
    assert.equal(before.balance, before.sum, 'the ledger explains the balance');
    const cancel = await call(
      t.app,
      'POST',
      `/rest/order/order/${order.id}/transition`,
      { token: await adminToken(t.app, [6]) },
      {
        to: 'cancelled',
      },
    );
    assert.equal(cancel.statusCode, 422, cancel.body);
    assert.doesNotMatch(cancel.body, /integer|22003|loyalty_points/);
    assert.deepEqual(await state(ada.id), before);
    const [row] = await queryRows<{ status: string; stock: number }>(
      t.app.db,
      sql`select (select status from sales_order where id = ${order.id}) as status,
                 (select stock_qty from product where id = ${p}) as stock`,
    );
    assert.deepEqual(row, { status: 'pending', stock: 9 });
  });

  test('when an order is cancelled normally, then the "returned" ledger row names the admin who cancelled', async () => {
    const transportId = await makeTransport(t.app.db);
    const p = await makeProduct(t.app.db, { price: 5000, stockQty: 10 });
    const ada = await makeCustomer(t.app);
    await adjust({ customerId: ada.id, delta: 300, reason: 'for the order' });
    await fillCart(t.app, { token: ada.token }, [[p, 1]]);
    const placed = await placeOrder(t.app, { token: ada.token }, { transportId, redeemPoints: true });
    assert.equal(placed.statusCode, 201, placed.body);
    const id = placed.json().data.id as number;
    const orders = await adminToken(t.app, [6]);
    const cancel = await call(
      t.app,
      'POST',
      `/rest/order/order/${id}/transition`,
      { token: orders },
      { to: 'cancelled' },
    );
    assert.equal(cancel.statusCode, 200, cancel.body);
    const rows = (await ledger(`?customerId=${ada.id}`, admin)).json().data as LedgerRow[];
    assert.deepEqual(
      rows.map((r) => [r.reason, r.orderId, r.actor]),
      [
        ['returned', id, 'static:ops@example.com'],
        ['redeemed', id, null],
        ['admin_adjustment', null, 'static:ops@example.com'],
      ],
    );
    const after = await state(ada.id);
    assert.equal(after.balance, 300);
    assert.equal(after.sum, 300);
  });
});
