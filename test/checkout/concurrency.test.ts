import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { queryRows } from '../../src/db/client.ts';
import { takeStock } from '../../src/modules/catalog/stock.repo.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { testEngine } from '../helpers/database.ts';
import {
  adminToken,
  call,
  fillCart,
  makeCoupon,
  makeCustomer,
  makeProduct,
  makeTransport,
  placeOrder,
  type Who,
} from './fixtures.ts';

// Races that must be decided by the database. PGlite runs one transaction at a time, so there these
// only check the outcome; on PostgreSQL (TEST_DATABASE_URL, pool of 20) they really race.

/** Unexpected answers, for the failure message: status and error code of each. */
function oddities(answers: { statusCode: number; body: string }[], expected: number[]): string {
  return answers
    .filter((a) => !expected.includes(a.statusCode))
    .map((a) => `${a.statusCode} ${a.body.slice(0, 200)}`)
    .join('\n');
}

function tally(statuses: number[]): Record<number, number> {
  const out: Record<number, number> = {};
  for (const s of statuses) out[s] = (out[s] ?? 0) + 1;
  return out;
}

describe(`concurrent checkouts (${testEngine})`, () => {
  let t: TestApp;
  let transportId: number;
  const one = async <T>(query: ReturnType<typeof sql>) => (await queryRows<T>(t.app.db, query))[0];

  before(async () => {
    t = await startTestApp();
    transportId = await makeTransport(t.app.db, { price: 0 });
  });
  after(async () => t.close());

  test('when 20 place-orders race on one cart, then exactly one order is made and the rest find the cart empty', async () => {
    const p = await makeProduct(t.app.db, { stockQty: 1000 });
    const who = await fillCart(t.app, {}, [[p, 3]]);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => placeOrder(t.app, who, { transportId, email: 'race@example.com' })),
    );
    const counts = tally(answers.map((a) => a.statusCode));
    assert.deepEqual(counts, { 201: 1, 422: 19 }, oddities(answers, [201, 422]));
    for (const a of answers) if (a.statusCode === 422) assert.equal(a.json().error.code, 'CART_EMPTY');
    const stock = await one<{ s: number }>(sql`select stock_qty as s from product where id = ${p}`);
    assert.equal(stock.s, 997);
  });

  test('when 20 retries with one Idempotency-Key race, then one order is made and every answer is that order', async () => {
    const p = await makeProduct(t.app.db, { stockQty: 1000 });
    const ada = await makeCustomer(t.app);
    await fillCart(t.app, { token: ada.token }, [[p, 1]]);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => placeOrder(t.app, { token: ada.token }, { transportId }, 'same-key')),
    );
    assert.deepEqual(tally(answers.map((a) => a.statusCode)), { 201: 20 });
    assert.equal(new Set(answers.map((a) => a.json().data.id)).size, 1);
    const n = await one<{ n: number }>(
      sql`select count(*)::int as n from sales_order where customer_id = ${ada.id}`,
    );
    assert.equal(n.n, 1);
  });

  test('when 100 buyers race for the last 10 units, then exactly 10 orders, stock 0, and 90 answers 409 OUT_OF_STOCK', async () => {
    const p = await makeProduct(t.app.db, { stockQty: 10 });
    const carts: Who[] = [];
    for (let i = 0; i < 100; i++) carts.push(await fillCart(t.app, {}, [[p, 1]]));
    const answers = await Promise.all(
      carts.map((who, i) => placeOrder(t.app, who, { transportId, email: `buyer${i}@example.com` })),
    );
    assert.deepEqual(
      tally(answers.map((a) => a.statusCode)),
      { 201: 10, 409: 90 },
      oddities(answers, [201, 409]),
    );
    for (const a of answers) if (a.statusCode === 409) assert.equal(a.json().error.code, 'OUT_OF_STOCK');
    const stock = await one<{ s: number }>(sql`select stock_qty as s from product where id = ${p}`);
    assert.equal(stock.s, 0);
    const lines = await one<{ n: number }>(
      sql`select coalesce(sum(qty), 0)::int as n from sales_order_line where product_id = ${p}`,
    );
    assert.equal(lines.n, 10);
  });

  test('when 50 customers race for a coupon limited to 5 uses, then it is used exactly 5 times', async () => {
    const p = await makeProduct(t.app.db, { stockQty: 1000 });
    const coupon = await makeCoupon(t.app.db, { usageLimit: 5 });
    const buyers: Who[] = [];
    for (let i = 0; i < 50; i++) {
      const me = { token: (await makeCustomer(t.app)).token };
      await fillCart(t.app, me, [[p, 1]]);
      const applied = await call(t.app, 'POST', '/rest/cart/coupon', me, { code: coupon.code });
      assert.equal(applied.statusCode, 200);
      buyers.push(me);
    }
    const answers = await Promise.all(buyers.map((me) => placeOrder(t.app, me, { transportId })));
    assert.deepEqual(
      tally(answers.map((a) => a.statusCode)),
      { 201: 5, 422: 45 },
      oddities(answers, [201, 422]),
    );
    for (const a of answers) if (a.statusCode === 422) assert.equal(a.json().error.code, 'COUPON_INVALID');
    const used = await one<{ used: number; redeemed: number }>(
      sql`select used_count as used, (select count(*)::int from coupon_redemption where coupon_id = ${coupon.id}) as redeemed from coupon where id = ${coupon.id}`,
    );
    assert.deepEqual(used, { used: 5, redeemed: 5 });
  });

  test('when orders redeeming points race with admin deductions, then the balance never goes negative and the ledger sums to it', async () => {
    const p = await makeProduct(t.app.db, { price: 10_000, stockQty: 1000 });
    const ada = await makeCustomer(t.app);
    const admin = await adminToken(t.app, [3]);
    const credit = await call(
      t.app,
      'POST',
      '/rest/loyalty/adjustment',
      { token: admin },
      { customerId: ada.id, delta: 1000, note: 'welcome' },
    );
    assert.equal(credit.statusCode, 200, credit.body);
    await fillCart(t.app, { token: ada.token }, [[p, 1]]);
    const orders = Array.from({ length: 10 }, () =>
      placeOrder(t.app, { token: ada.token }, { transportId, redeemPoints: true }),
    );
    const deductions = Array.from({ length: 10 }, () =>
      call(
        t.app,
        'POST',
        '/rest/loyalty/adjustment',
        { token: admin },
        { customerId: ada.id, delta: -300, note: 'race' },
      ),
    );
    const answers = await Promise.all([...orders, ...deductions]);
    const placed = answers.slice(0, 10).filter((a) => a.statusCode === 201);
    assert.equal(placed.length, 1, 'one cart, one order');
    for (const a of answers.slice(10)) assert.ok([200, 422].includes(a.statusCode), a.body);
    const state = await one<{ balance: number; ledger: number }>(
      sql`select loyalty_points as balance, (select coalesce(sum(delta), 0)::int from loyalty_ledger where customer_id = ${ada.id}) as ledger from customer where id = ${ada.id}`,
    );
    assert.ok(state.balance >= 0);
    assert.equal(state.ledger, state.balance);
    const spent = placed[0].json().data.pointsSpent as number;
    const deducted = answers.slice(10).filter((a) => a.statusCode === 200).length * 300;
    assert.equal(state.balance, 1000 - spent - deducted);
  });

  test('when two orders each cross a stock threshold and then take a product the other holds, then both orders are made', {
    skip: testEngine === 'pglite' ? 'PGlite runs one transaction at a time' : false,
  }, async () => {
    // Crossing "fewer than 5" moves the versions of products and variants. Moved during the
    // reservation, that row was locked between two product locks, and these two deadlocked.
    const a = await makeProduct(t.app.db, { stockQty: 6 });
    const c = await makeProduct(t.app.db, { stockQty: 6 });
    const variantOf = async (id: number) =>
      (await one<{ id: number }>(sql`select id from product_variant where product_id = ${id}`)).id;
    const [va, vc] = [await variantOf(a), await variantOf(c)];
    const versions = () =>
      queryRows<{ name: string; version: string }>(
        t.app.db,
        sql`select name, version::text from resource_version where name in ('product', 'product_variant') order by name`,
      );
    const before = await versions();
    let firstTookA!: () => void;
    const aTaken = new Promise<void>((open) => (firstTookA = open));
    let secondTookC!: () => void;
    const cTaken = new Promise<void>((open) => (secondTookC = open));
    const first = t.app.db.transaction(async (tx) => {
      assert.ok(await takeStock(tx, va, 2));
      firstTookA();
      // The second's take of C either returns (C is then locked by it) or waits on a lock of ours.
      await Promise.race([cTaken, new Promise((wait) => setTimeout(wait, 300))]);
      assert.ok(await takeStock(tx, vc, 2));
    });
    const second = t.app.db.transaction(async (tx) => {
      await aTaken;
      assert.ok(await takeStock(tx, vc, 2));
      secondTookC();
    });
    const outcomes = await Promise.allSettled([first, second]);
    assert.deepEqual(
      outcomes.map((o) => (o.status === 'rejected' ? String(o.reason?.cause ?? o.reason) : 'committed')),
      ['committed', 'committed'],
    );
    const stock = await queryRows<{ s: number }>(
      t.app.db,
      sql`select stock_qty as s from product where id in (${a}, ${c}) order by id`,
    );
    assert.deepEqual(
      stock.map((r) => r.s),
      [4, 2],
    );
    const after = await versions();
    assert.equal(after.length, 2);
    for (const [i, row] of after.entries()) assert.notEqual(row.version, before[i]?.version, row.name);
  });

  test('when PostgreSQL breaks a deadlock by rolling back a place-order, then the order is still made, once, and its stock taken once', {
    skip: testEngine === 'pglite' ? 'PGlite runs one transaction at a time' : false,
  }, async () => {
    // Another writer (here a raw connection) holds product C's stock, the order takes A and waits
    // for C, then the writer asks for A: one of the two is rolled back to break the cycle.
    const a = await makeProduct(t.app.db, { stockQty: 50 });
    const c = await makeProduct(t.app.db, { stockQty: 50 });
    const ada = await makeCustomer(t.app);
    await fillCart(t.app, { token: ada.token }, [
      [a, 1],
      [c, 1],
    ]);
    const writer = new pg.Client({ connectionString: t.testDatabase.url });
    await writer.connect();
    try {
      await writer.query('begin');
      await writer.query('update product_variant set stock_qty = stock_qty + 10 where product_id = $1', [c]);
      const ordering = placeOrder(t.app, { token: ada.token }, { transportId });
      // The order waits on C's lock once it has taken A.
      for (let i = 0; i < 250; i++) {
        const waiting = await writer.query(
          "select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
        );
        if (waiting.rowCount) break;
        await new Promise((wait) => setTimeout(wait, 20));
      }
      const writerDone = writer
        .query('update product_variant set stock_qty = stock_qty + 10 where product_id = $1', [a])
        .then(
          () => writer.query('commit'),
          () => writer.query('rollback'),
        );
      const placed = await ordering;
      await writerDone;
      assert.equal(placed.statusCode, 201, placed.body);
    } finally {
      await writer.end();
    }
    const orders = await one<{ n: number }>(
      sql`select count(*)::int as n from sales_order where customer_id = ${ada.id}`,
    );
    assert.equal(orders.n, 1);
    const stock = await queryRows<{ s: number }>(
      t.app.db,
      sql`select stock_qty as s from product where id in (${a}, ${c}) order by id`,
    );
    // One unit taken of each; the writer's +10 kept on both when it committed, on neither when it was the one rolled back.
    const added = stock[0].s === 59 ? 10 : 0;
    assert.deepEqual(
      stock.map((r) => r.s),
      [49 + added, 49 + added],
    );
  });
});
