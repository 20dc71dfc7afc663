import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/db/client.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { setStoredSetting } from '../helpers/catalog-factories.ts';
import { fillCart, makeCustomer, makeProduct, makeTransport, placeOrder } from '../checkout/fixtures.ts';

// The stock events' threshold is the stored setting, else the configuration file's, else 5: the
// trigger that raises them reads the configuration's value from setting_default (docs/events.md).

describe('product.stock_low with the threshold of the configuration file', () => {
  let t: TestApp;
  let transportId: number;

  before(async () => {
    t = await startTestApp({ config: { settings: { stock_low_threshold: 8 } } });
    transportId = await makeTransport(t.app.db);
  });
  after(async () => t.close());

  const lowEvents = (productId: number) =>
    queryRows<{ payload: { stockQty: number; threshold: number } }>(
      t.app.db,
      sql`select payload from outbox_event where type = 'product.stock_low'
          and (payload->>'productId')::int = ${productId} order by id`,
    );

  async function sell(productId: number, qty: number): Promise<void> {
    const customer = await makeCustomer(t.app);
    await fillCart(t.app, { token: customer.token }, [[productId, qty]]);
    const placed = await placeOrder(t.app, { token: customer.token }, { transportId });
    assert.equal(placed.statusCode, 201, placed.body);
  }

  test('when a sale takes stock from 10 to 7 and only the configuration says 8, then stock_low with threshold 8', async () => {
    const product = await makeProduct(t.app.db, { stockQty: 10 });
    await sell(product, 3);
    assert.deepEqual(
      (await lowEvents(product)).map((e) => [e.payload.stockQty, e.payload.threshold]),
      [[7, 8]],
    );
  });

  test('when an operator stores a threshold, then it wins over the configuration', async () => {
    await setStoredSetting(t.app.db, 'stock_low_threshold', 3);
    const product = await makeProduct(t.app.db, { stockQty: 10 });
    await sell(product, 3);
    assert.deepEqual(await lowEvents(product), [], '7 is above the stored 3');
    await sell(product, 4);
    assert.deepEqual(
      (await lowEvents(product)).map((e) => [e.payload.stockQty, e.payload.threshold]),
      [[3, 3]],
    );
  });
});
