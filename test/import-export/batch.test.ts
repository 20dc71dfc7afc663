import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/db/client.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { adminHeaders } from '../helpers/catalog-factories.ts';
import { IMPORT_APP_CONFIG, imported } from './import-fixtures.ts';

// Imports write new products a batch of rows at a time: what a batch writes must be what single
// writes would (slugs, price history, events, audit entries), and a row the batch write refuses
// is reported alone while the batch's other rows land.

const HEADER = 'SKU,Name,Type,Regular price,Stock,Parent,Attribute 1 name,Attribute 1 value(s)';

interface ProductJson {
  id: number;
  slug: string;
  price: number;
  stockQty: number;
  variants: { sku: string; price: number | null; stockQty: number }[];
}

describe('catalog import in batches', () => {
  let t: TestApp;
  let products: Record<string, string>;
  let admin: Record<string, string>;

  before(async () => {
    t = await startTestApp({ config: IMPORT_APP_CONFIG });
    products = await adminHeaders(t.app, [5]);
    admin = await adminHeaders(t.app, [3]);
  });
  after(() => t.close());

  const product = async (sku: string): Promise<ProductJson | undefined> => {
    const res = await t.app.inject({ method: 'GET', url: `/rest/product/product?sku=${sku}&with=variants`, headers: products });
    return (res.json().data as ProductJson[])[0];
  };

  test('when a batch holds a product the catalog refuses, then its rows are reported by row and column and the others land', async () => {
    const good = Array.from({ length: 240 }, (_, i) => `R-${i},Plain thing ${i},simple,${i + 1}.50,${i % 7},,,`);
    const file = [
      HEADER,
      ...good.slice(0, 100),
      // Two variations choosing the same size: the catalog refuses the product with its variants.
      'R-TEE,T-shirt,variable,,,,Size,"S, M"',
      'R-TEE-S,,variation,10.00,1,R-TEE,Size,S',
      'R-TEE-S2,,variation,10.00,1,R-TEE,Size,S',
      ...good.slice(100),
    ].join('\n');
    const report = await imported(t.app, products, file);
    assert.equal(report.status, 'done');
    assert.deepEqual(
      report.errors.map((e) => [e.row, e.column]),
      [
        [102, 'Attribute 1 value(s)'],
        [103, 'Parent'],
        [104, 'Parent'],
      ],
    );
    assert.deepEqual([report.created, report.processed], [240, 243]);
    assert.equal(await product('R-TEE'), undefined);
    const last = await product('R-239');
    assert.deepEqual([last?.price, last?.stockQty], [240.5, 239 % 7]);
  });

  test('when the file cannot be read to its end, then the rows before the place it stops land and the job fails there', async () => {
    const file = [HEADER, 'Q-1,First,simple,1.00,,,,', 'Q-2,Second,simple,2.00,,,,', 'Q-3,"Unclosed,simple,3.00,,,,'].join('\n');
    const report = await imported(t.app, products, file);
    assert.equal(report.status, 'failed');
    assert.deepEqual([report.created, report.errors.map((e) => e.row)], [2, [4]]);
    assert.ok(await product('Q-1'));
    assert.ok(await product('Q-2'));
  });

  test('when new products come in one batch, then each has its slug, price history, price event and audit entry', async () => {
    const file = [
      HEADER,
      'N-1,Same name,simple,12.50,3,,,',
      'N-2,Same name,simple,7.00,,,,',
      'N-TEE,Shirt,variable,,,,Size,"S, M"',
      'N-TEE-S,,variation,9.00,2,N-TEE,Size,S',
      'N-TEE-M,,variation,,5,N-TEE,Size,M',
    ].join('\n');
    const report = await imported(t.app, products, file);
    assert.deepEqual([report.created, report.errors.length], [5, 0]);
    const [one, two, tee] = await Promise.all(['N-1', 'N-2', 'N-TEE'].map(product));
    assert.deepEqual([one?.slug, two?.slug], ['same-name', 'same-name-2']);
    assert.deepEqual([one?.price, one?.stockQty], [12.5, 3]);
    // The variable product's price is its cheapest variation's; a variation without one follows it.
    assert.deepEqual(
      [tee?.price, tee?.stockQty, tee?.variants.map((v) => [v.sku, v.price, v.stockQty])],
      [9, 7, [['N-TEE-S', 9, 2], ['N-TEE-M', null, 5]]],
    );
    const history = await queryRows<{ sku: string; price: number }>(
      t.database.db,
      sql`select coalesce(v.sku, p.sku) as sku, h.price from product_price_history h join product p on p.id = h.product_id
          left join product_variant v on v.id = h.variant_id where p.sku like 'N-%' order by 1, h.variant_id nulls first`,
    );
    assert.deepEqual(
      history.map((h) => [h.sku, h.price]),
      [['N-1', 1250], ['N-1', 1250], ['N-2', 700], ['N-2', 700], ['N-TEE', 900], ['N-TEE-M', 900], ['N-TEE-S', 900]],
    );
    const events = await queryRows<{ sku: string; newPrice: number; oldPrice: null }>(
      t.database.db,
      sql`select payload->>'sku' as sku, (payload->>'newPrice')::float as "newPrice", payload->'oldPrice' as "oldPrice"
          from outbox_event where type = 'product.price_changed' and payload->>'sku' like 'N-%' order by 1`,
    );
    assert.deepEqual(events.map((e) => [e.sku, e.newPrice]), [['N-1', 12.5], ['N-2', 7], ['N-TEE', 9]]);
    const res = await t.app.inject({ method: 'GET', url: `/rest/system/audit?entity=product&entityId=${one?.id}`, headers: admin });
    const [entry] = res.json().data as { action: string; actor: string; changes: Record<string, { before: unknown; after: unknown }> }[];
    assert.deepEqual([entry.action, entry.actor], ['create', 'static:t@example.com']);
    assert.deepEqual(entry.changes.price, { before: null, after: 12.5 });
    assert.deepEqual(entry.changes.slug, { before: null, after: 'same-name' });
  });
});
