import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { parseConfig } from '../../src/config.ts';
import { startTestApp, TEST_SECRET, type TestApp } from '../helpers/app.ts';
import { adminHeaders } from '../helpers/catalog-factories.ts';
import {
  ADDRESS,
  fillCart,
  makeCustomer,
  makeProduct,
  makeTransport,
  placeOrder,
  totals,
} from '../checkout/fixtures.ts';

describe('payment methods as data', () => {
  let t: TestApp;
  let transportId: number;
  let admin: Record<string, string>;

  before(async () => {
    t = await startTestApp();
    transportId = await makeTransport(t.app.db, { codFee: 250 });
    admin = await adminHeaders(t.app, [3]);
  });
  after(async () => t.close());

  const methods = async () => {
    const res = await t.app.inject({ method: 'GET', url: '/rest/checkout/payment-methods' });
    assert.equal(res.statusCode, 200);
    return res.json().data as { code: string; kind: string; provider: string | null }[];
  };
  const enable = async (value: string[]) => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/rest/system/setting/payment_methods_enabled',
      headers: admin,
      payload: { value },
    });
    assert.equal(res.statusCode, 200, res.body);
  };

  test('when anyone asks, then the enabled methods answer with their kind and provider (card through the test provider)', async () => {
    assert.deepEqual(await methods(), [
      { code: 'delivery', name: 'Cash on delivery', kind: 'offline', provider: null },
      { code: 'bank_transfer', name: 'Bank transfer', kind: 'offline', provider: null },
      { code: 'card', name: 'Card', kind: 'card', provider: 'test' },
    ]);
  });

  test('when an Admin disables a method, then it is no longer listed and totals and place-order refuse it with 422 PAYWAY_INVALID', async () => {
    await enable(['delivery', 'card']);
    try {
      assert.deepEqual(
        (await methods()).map((m) => m.code),
        ['delivery', 'card'],
      );
      const p = await makeProduct(t.app.db, { price: 1999 });
      const ada = await makeCustomer(t.app);
      const who = await fillCart(t.app, { token: ada.token }, [[p, 1]]);
      const quote = await totals(t.app, who, { transportId, payWay: 'bank_transfer' });
      assert.equal(quote.statusCode, 422);
      assert.equal(quote.json().error.code, 'PAYWAY_INVALID');
      const refused = await placeOrder(t.app, who, { transportId, payWay: 'bank_transfer' });
      assert.equal(refused.statusCode, 422);
      assert.equal(refused.json().error.code, 'PAYWAY_INVALID');
      // Nothing was written: the cart is still there and orders with an enabled method.
      const placed = await placeOrder(t.app, who, { transportId, payWay: 'delivery' });
      assert.equal(placed.statusCode, 201);
      assert.equal(placed.json().data.total, 27.49);
      assert.equal(placed.json().data.totals.deliveryCost, 2.5);
    } finally {
      await enable(['delivery', 'bank_transfer', 'card']);
    }
  });

  test('when no payWay is sent, then the quote is not refused (a customer may choose later)', async () => {
    await enable(['delivery']);
    try {
      const p = await makeProduct(t.app.db, { price: 1000 });
      const who = await fillCart(t.app, {}, [[p, 1]]);
      const quote = await totals(t.app, who, { transportId });
      assert.equal(quote.statusCode, 200);
    } finally {
      await enable(['delivery', 'bank_transfer', 'card']);
    }
  });

  test('when a payWay is not a payment method at all, then 400 (the schema lists the codes)', async () => {
    const p = await makeProduct(t.app.db);
    const who = await fillCart(t.app, {}, [[p, 1]]);
    const res = await placeOrder(t.app, who, { ...ADDRESS, transportId, payWay: 'bitcoin', email: 'a@b.co' });
    assert.equal(res.statusCode, 400);
  });
});

describe('payment methods: the card provider by environment', () => {
  test('when NODE_ENV is production, then the test provider is refused and card is not offered without a provider', async () => {
    const production = { nodeEnv: 'production', auth: { secret: TEST_SECRET }, seedDemo: false };
    assert.throws(
      () => parseConfig({ ...production, payments: { cardProvider: 'test' } }),
      /payments.cardProvider/,
    );
    const t = await startTestApp({ config: { nodeEnv: 'production' } });
    try {
      const res = await t.app.inject({ method: 'GET', url: '/rest/checkout/payment-methods' });
      assert.deepEqual(
        res.json().data.map((m: { code: string }) => m.code),
        ['delivery', 'bank_transfer'],
      );
    } finally {
      await t.close();
    }
  });
});
