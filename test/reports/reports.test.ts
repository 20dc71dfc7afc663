import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/db/client.ts';
import { toCents } from '../../src/lib/money.ts';
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

interface Vat {
  rate: number;
  net: number;
  vat: number;
  gross: number;
}
interface Order {
  id: number;
  number: string;
  status: string;
  total: number;
  vatBreakdown: Vat[];
  totals: {
    couponDiscount: number;
    pointsCash: number;
    shippingCost: number;
    deliveryCost: number;
    itemCount: number;
  };
  lines: { id: number; qty: number }[];
}
interface Bucket {
  period: string;
  orders: number;
  items: number;
  gross: number;
  net: number;
  vatTotal: number;
  vat: Vat[];
  discounts: number;
  shipping: number;
  delivery: number;
  pointsCash: number;
  returns: number;
  refunds: number;
}

const cents = (n: number) => toCents(n);
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

describe('reports', () => {
  let t: TestApp;
  let reporting: string;
  let ops: string;
  const orders: Order[] = [];
  // Instants chosen around midnight in Athens (UTC+2 in March): the shop's zone decides the day.
  const placedAt = [
    '2026-03-01T10:00:00Z',
    '2026-03-01T21:30:00Z', // 23:30 in Athens: still 1 March
    '2026-03-01T22:30:00Z', // 00:30 on 2 March in Athens, 1 March in UTC
    '2026-03-02T12:00:00Z',
    '2026-03-03T08:00:00Z',
    '2026-03-09T08:00:00Z',
    '2026-03-09T09:00:00Z', // cancelled below: not counted
  ];

  before(async () => {
    t = await startTestApp();
    reporting = await adminToken(t.app, [7]);
    ops = await adminToken(t.app, [6]);
    await setStoredSetting(t.app.db, 'loyalty_reward_cash_per_unit', 1);
    const transportId = await makeTransport(t.app.db, { price: 490, codFee: 150 });
    const products = [
      await makeProduct(t.app.db, { price: 1999, vatRate: 24 }),
      await makeProduct(t.app.db, { price: 333, vatRate: 13 }),
      await makeProduct(t.app.db, { price: 1001, vatRate: 6 }),
    ];
    const coupon = await makeCoupon(t.app.db, { type: 'percent', value: 1250 });
    for (const [i, at] of placedAt.entries()) {
      const customer = await makeCustomer(t.app, i % 2 === 0 ? 300 : 0);
      const me = { token: customer.token };
      await fillCart(t.app, me, [
        [products[i % 3], 1 + (i % 2)],
        [products[(i + 1) % 3], 1 + (i % 3)],
      ]);
      if (i % 3 === 0) await call(t.app, 'POST', '/rest/cart/coupon', me, { code: coupon.code });
      const placed = await placeOrder(t.app, me, {
        transportId,
        redeemPoints: i % 2 === 0,
        payWay: i === 4 ? 'delivery' : 'card',
      });
      assert.equal(placed.statusCode, 201, placed.body);
      const order = placed.json().data as Order;
      await queryRows(
        t.app.db,
        sql`update sales_order set created_at = ${at}::timestamptz where id = ${order.id}`,
      );
      orders.push(order);
    }
    const cancelled = orders.at(-1)!;
    await call(
      t.app,
      'POST',
      `/rest/order/order/${cancelled.id}/transition`,
      { token: ops },
      { to: 'cancelled' },
    );
  });
  after(async () => t.close());

  const counted = () => orders.slice(0, -1);
  const report = async (query: string, token = reporting) => {
    const res = await call(t.app, 'GET', `/rest/report/sales?${query}`, { token });
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data as { buckets: Bucket[]; timezone: string };
  };

  test('when the sales of a month are asked, then its totals equal the sum of the orders it covers, per VAT rate, to the cent', async () => {
    const { buckets } = await report('from=2026-03-01&to=2026-03-31&interval=month');
    assert.equal(buckets.length, 1);
    const [b] = buckets;
    const mine = counted();
    assert.equal(b.orders, mine.length);
    assert.equal(cents(b.gross), sum(mine.map((o) => cents(o.total))));
    assert.equal(b.items, sum(mine.map((o) => o.totals.itemCount)));
    assert.equal(cents(b.discounts), sum(mine.map((o) => cents(o.totals.couponDiscount))));
    assert.equal(cents(b.pointsCash), sum(mine.map((o) => cents(o.totals.pointsCash))));
    assert.equal(cents(b.shipping), sum(mine.map((o) => cents(o.totals.shippingCost))));
    assert.equal(cents(b.delivery), sum(mine.map((o) => cents(o.totals.deliveryCost))));
    const rates = [...new Set(mine.flatMap((o) => o.vatBreakdown.map((v) => v.rate)))].sort((x, y) => x - y);
    assert.deepEqual(
      b.vat.map((v) => v.rate),
      rates,
    );
    for (const v of b.vat) {
      const of = mine.flatMap((o) => o.vatBreakdown.filter((x) => x.rate === v.rate));
      for (const key of ['net', 'vat', 'gross'] as const) {
        assert.equal(cents(v[key]), sum(of.map((x) => cents(x[key]))), `${key} at ${v.rate}%`);
      }
    }
    assert.equal(cents(b.net) + cents(b.vatTotal), cents(b.gross));
    assert.equal(sum(b.vat.map((v) => cents(v.gross))), cents(b.gross));
  });

  test('when the shop is in Athens, then an order placed at 22:30 UTC counts on the next day; in UTC, on its own', async () => {
    await setStoredSetting(t.app.db, 'timezone', 'Europe/Athens');
    try {
      const athens = await report('from=2026-03-01&to=2026-03-03');
      assert.equal(athens.timezone, 'Europe/Athens');
      assert.deepEqual(
        athens.buckets.map((b) => [b.period, b.orders]),
        [
          ['2026-03-01', 2],
          ['2026-03-02', 2],
          ['2026-03-03', 1],
        ],
      );
    } finally {
      await setStoredSetting(t.app.db, 'timezone', 'UTC');
    }
    const utc = await report('from=2026-03-01&to=2026-03-03');
    assert.deepEqual(
      utc.buckets.map((b) => b.orders),
      [3, 1, 1],
    );
    const weeks = await report('from=2026-03-01&to=2026-03-15&interval=week');
    assert.deepEqual(
      weeks.buckets.map((b) => [b.period, b.orders]),
      [
        ['2026-02-23', 3],
        ['2026-03-02', 2],
        ['2026-03-09', 1],
      ],
    );
  });

  test('when goods come back, then the refund counts on the day of the return', async () => {
    const order = orders[5];
    const path = `/rest/order/order/${order.id}`;
    for (const to of ['confirmed', 'shipped'])
      await call(t.app, 'POST', `${path}/transition`, { token: ops }, { to });
    await call(t.app, 'POST', `${path}/payment`, { token: ops }, {});
    const ret = await call(
      t.app,
      'POST',
      `${path}/return`,
      { token: ops },
      {
        lines: [{ orderLineId: order.lines[0].id, qty: 1 }],
        restock: true,
      },
    );
    assert.equal(ret.statusCode, 201, ret.body);
    const refunded = ret.json().data.refunded as number;
    const [returnedOn] = await queryRows<{ day: string }>(
      t.app.db,
      sql`select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as day from order_return where order_id = ${order.id}`,
    );
    const { buckets } = await report(`from=${returnedOn.day}&to=${returnedOn.day}`);
    assert.deepEqual([buckets[0].returns, buckets[0].refunds], [1, refunded]);
  });

  test('when CSV is asked, then the same figures come as RFC 4180 lines with columns per VAT rate', async () => {
    const res = await call(
      t.app,
      'GET',
      '/rest/report/sales?from=2026-03-01&to=2026-03-31&interval=month',
      { token: reporting },
      undefined,
      { accept: 'text/csv' },
    );
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/csv/);
    const [head, row, end] = res.body.split('\r\n');
    assert.equal(end, '');
    const columns = head.split(',');
    const values = Object.fromEntries(columns.map((c, i) => [c, row.split(',')[i]]));
    const json = (await report('from=2026-03-01&to=2026-03-31&interval=month')).buckets[0];
    assert.equal(values.gross, json.gross.toFixed(2));
    for (const v of json.vat) assert.equal(values[`vat_${v.rate}`], v.vat.toFixed(2));
  });

  test('when the top products, coupons and loyalty are asked, then they add up to the orders', async () => {
    const top = await call(t.app, 'GET', '/rest/report/top-products?from=2026-03-01&to=2026-03-31&limit=2', {
      token: reporting,
    });
    assert.equal(top.statusCode, 200, top.body);
    assert.equal(top.json().data.length, 2);
    const coupons = await call(t.app, 'GET', '/rest/report/coupons?from=2026-03-01&to=2026-03-31', {
      token: reporting,
    });
    const withCoupon = counted().filter((o) => o.totals.couponDiscount > 0);
    assert.deepEqual(
      coupons.json().data.map((c: { orders: number; discount: number }) => [c.orders, cents(c.discount)]),
      [[withCoupon.length, sum(withCoupon.map((o) => cents(o.totals.couponDiscount)))]],
    );
    const today = new Date().toISOString().slice(0, 10);
    const loyalty = await call(t.app, 'GET', `/rest/report/loyalty?to=${today}`, { token: reporting });
    assert.equal(loyalty.statusCode, 200, loyalty.body);
    const spent = sum(
      (
        await queryRows<{ n: number }>(
          t.app.db,
          sql`select -delta as n from loyalty_ledger where reason = 'redeemed'`,
        )
      ).map((r) => r.n),
    );
    const [{ balance }] = await queryRows<{ balance: number }>(
      t.app.db,
      sql`select sum(loyalty_points)::int as balance from customer`,
    );
    assert.deepEqual([loyalty.json().data.redeemed, loyalty.json().data.outstanding], [spent, balance]);
  });

  test('when Reporting asks for the coupons report, then the figures come with the coupon id and no code (JSON and CSV); Admin also reads the code', async () => {
    const path = '/rest/report/coupons?from=2026-03-01&to=2026-03-31';
    const admin = await adminToken(t.app, [3]);
    const byAdmin = (await call(t.app, 'GET', path, { token: admin })).json().data;
    const byReporting = (await call(t.app, 'GET', path, { token: reporting })).json().data;
    assert.equal(byAdmin.length, 1);
    assert.equal(typeof byAdmin[0].code, 'string');
    assert.equal(typeof byAdmin[0].couponId, 'number');
    assert.deepEqual(byReporting, [{ ...byAdmin[0], code: null }]);
    const csv = (await call(t.app, 'GET', path, { token: reporting }, undefined, { accept: 'text/csv' }))
      .body;
    assert.equal(csv.split('\r\n')[0], 'couponId,orders,discount,gross');
    assert.ok(!csv.includes(byAdmin[0].code), 'the code is nowhere in the CSV');
    const adminCsv = (await call(t.app, 'GET', path, { token: admin }, undefined, { accept: 'text/csv' }))
      .body;
    assert.equal(adminCsv.split('\r\n')[0], 'couponId,code,orders,discount,gross');
    assert.ok(adminCsv.includes(byAdmin[0].code));
  });

  test('when someone without Admin or Reporting asks, then 403 (401 without a token); a bad period is 400', async () => {
    for (const path of ['sales', 'top-products', 'coupons', 'loyalty']) {
      assert.equal((await call(t.app, 'GET', `/rest/report/${path}`, { token: ops })).statusCode, 403, path);
      assert.equal((await call(t.app, 'GET', `/rest/report/${path}`)).statusCode, 401, path);
    }
    assert.equal(
      (await call(t.app, 'GET', '/rest/report/sales', { token: await adminToken(t.app, [3]) })).statusCode,
      200,
    );
    for (const q of [
      'from=2026-03-05&to=2026-03-01',
      'from=2026-02-30',
      'interval=year',
      'from=2000-01-01&to=2026-01-01',
    ]) {
      assert.equal(
        (await call(t.app, 'GET', `/rest/report/sales?${q}`, { token: reporting })).statusCode,
        400,
        q,
      );
    }
  });

  test('when orders are exported with the list filters, then every matching order is a line; Reporting gets no e-mail column', async () => {
    const res = await call(t.app, 'GET', '/rest/report/orders?status=cancelled', { token: ops });
    assert.equal(res.statusCode, 200, res.body);
    const lines = res.body.trimEnd().split('\r\n');
    assert.ok(lines[0].split(',').includes('email'));
    assert.deepEqual(
      lines.slice(1).map((l) => l.split(',')[0]),
      [orders.at(-1)!.number],
    );
    const all = await call(
      t.app,
      'GET',
      '/rest/report/orders?createdFrom=2026-03-01T00:00:00Z&createdTo=2026-03-02T00:00:00Z',
      {
        token: reporting,
      },
    );
    const rows = all.body.trimEnd().split('\r\n');
    assert.ok(!rows[0].split(',').includes('email'));
    assert.equal(rows.length - 1, 3);
    const list = await call(
      t.app,
      'GET',
      '/rest/order/order?createdFrom=2026-03-01T00:00:00Z&createdTo=2026-03-02T00:00:00Z',
      {
        token: ops,
      },
    );
    assert.equal(list.json().pagination.total, 3, 'the list takes the same filters');
  });
});
