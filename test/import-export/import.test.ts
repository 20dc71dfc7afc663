import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/db/client.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { adminHeaders } from '../helpers/catalog-factories.ts';
import { csvLine, exported, IMPORT_APP_CONFIG, imported, sendCsv } from './import-fixtures.ts';

interface VariantJson {
  sku: string;
  options: Record<string, string>;
  price: number;
  stockQty: number;
  updatedAt: string;
}

interface ProductJson {
  name: string;
  description: string;
  price: number;
  taxClass: string;
  stockQty: number;
  weightKg: number;
  images: string[];
  categoryId: number;
  category: { name: string; path: { name: string }[] };
  translations: Record<string, Record<string, string>>;
  options: unknown;
  variants: VariantJson[];
  updatedAt: string;
}

const WOO_HEADER = [
  'ID',
  'Type',
  'SKU',
  'Name',
  'Published',
  'Is featured?',
  'Short description',
  'Description',
  'Tax status',
  'Tax class',
  'In stock?',
  'Stock',
  'Weight (kg)',
  'Sale price',
  'Regular price',
  'Categories',
  'Tags',
  'Images',
  'Parent',
  'Attribute 1 name',
  'Attribute 1 value(s)',
  'Attribute 1 visible',
  'Attribute 1 global',
  'Attribute 2 name',
  'Attribute 2 value(s)',
  'Attribute 2 visible',
  'Attribute 2 global',
  'Name:el',
  'Description:el',
];

/** A row in WooCommerce's column order from the cells it names. */
function wooRow(cells: Record<string, string>): string[] {
  return WOO_HEADER.map((column) => cells[column] ?? '');
}

/**
 * The file a Greek WooCommerce shop exports from a spreadsheet set to Greek: a byte-order mark,
 * `;` between cells, CRLF lines, a description with line breaks inside quotes, a variable product
 * with two attributes and its variations, categories as paths, Greek translations.
 */
function wooExport(prefix: string): string {
  const rows = [
    wooRow({
      ID: '101',
      Type: 'simple',
      SKU: `${prefix}-MUG`,
      Name: 'Ceramic mug',
      Published: '1',
      Description: 'Holds 350 ml;\nhand made in "Volos".',
      'Tax class': 'reduced-rate',
      'In stock?': '1',
      Stock: '12',
      'Weight (kg)': '0,35',
      'Regular price': '12,50',
      Categories: `${prefix} Kitchen > Mugs, Gifts`,
      Images: 'https://cdn.example.com/mug.jpg, https://cdn.example.com/mug-2.jpg',
      'Name:el': 'Κεραμική κούπα',
      'Description:el': 'Χωράει 350 ml',
    }),
    wooRow({
      ID: '102',
      Type: 'variable',
      SKU: `${prefix}-TEE`,
      Name: 'Cotton T-shirt',
      Published: '1',
      Description: 'Soft cotton.',
      'Regular price': '',
      Categories: `${prefix} Clothing > T-shirts`,
      'Attribute 1 name': 'Size',
      'Attribute 1 value(s)': 'S, M',
      'Attribute 1 visible': '1',
      'Attribute 1 global': '1',
      'Attribute 2 name': 'Colour',
      'Attribute 2 value(s)': 'Red, Blue',
      'Name:el': 'Βαμβακερό μπλουζάκι',
    }),
    ...[
      ['103', 'S', 'Red', '19.00', '4'],
      ['104', 'S', 'Blue', '19.00', '0'],
      ['105', 'M', 'Red', '21.00', '7'],
    ].map(([id, size, colour, price, stock]) =>
      wooRow({
        ID: id,
        Type: 'variation',
        SKU: `${prefix}-TEE-${size}-${colour}`,
        Name: `Cotton T-shirt - ${size}, ${colour}`,
        Published: '1',
        'Regular price': price,
        Stock: stock,
        Parent: 'id:102',
        'Attribute 1 name': 'Size',
        'Attribute 1 value(s)': size,
        'Attribute 2 name': 'Colour',
        'Attribute 2 value(s)': colour,
      }),
    ),
  ];
  return `\uFEFF${[WOO_HEADER, ...rows].map((r) => csvLine(r, ';')).join('\r\n')}\r\n`;
}

describe('catalog import and export through HTTP', () => {
  let t: TestApp;
  let admin: Record<string, string>;

  before(async () => {
    t = await startTestApp({ config: { ...IMPORT_APP_CONFIG, import: { maxBytes: 4096 } } });
    admin = await adminHeaders(t.app, [5]);
  });
  after(() => t.close());

  const found = async (sku: string): Promise<ProductJson | undefined> => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/rest/product/product?sku=${encodeURIComponent(sku)}&with=variants,category`,
      headers: admin,
    });
    return (res.json().data as ProductJson[])[0];
  };
  const product = async (sku: string): Promise<ProductJson> => {
    const row = await found(sku);
    assert.ok(row, `${sku} is in the shop`);
    return row;
  };
  const events = async (sku: string, afterId = 0) =>
    queryRows<{ id: number; type: string }>(
      t.database.db,
      sql`select id::int, type from outbox_event where payload->>'sku' like ${`${sku}%`} and id > ${afterId} order by id`,
    );

  test("when a WooCommerce export is imported, then its products, variations, categories and translations are the shop's", async () => {
    const report = await imported(t.app, admin, wooExport('W1'));
    assert.deepEqual(report.errors, []);
    assert.equal(report.status, 'done');
    assert.deepEqual([report.total, report.processed, report.created], [5, 5, 5]);

    const mug = await product('W1-MUG');
    assert.equal(mug.name, 'Ceramic mug');
    assert.equal(mug.description, 'Holds 350 ml;\nhand made in "Volos".');
    assert.equal(mug.price, 12.5);
    assert.equal(mug.taxClass, 'reduced');
    assert.equal(mug.stockQty, 12);
    assert.equal(mug.weightKg, 0.35);
    assert.deepEqual(mug.images, ['https://cdn.example.com/mug.jpg', 'https://cdn.example.com/mug-2.jpg']);
    assert.deepEqual([...mug.category.path.map((c) => c.name), mug.category.name], ['W1 Kitchen', 'Mugs']);
    assert.equal(mug.translations.el.name, 'Κεραμική κούπα');

    const tee = await product('W1-TEE');
    assert.deepEqual(tee.options, [
      { name: 'Size', values: ['S', 'M'] },
      { name: 'Colour', values: ['Red', 'Blue'] },
    ]);
    assert.equal(tee.price, 19, 'a variable row without a price takes its cheapest variation’s');
    assert.deepEqual(
      tee.variants.map((v) => [v.sku, v.options, v.price, v.stockQty]),
      [
        ['W1-TEE-S-Red', { Size: 'S', Colour: 'Red' }, 19, 4],
        ['W1-TEE-S-Blue', { Size: 'S', Colour: 'Blue' }, 19, 0],
        ['W1-TEE-M-Red', { Size: 'M', Colour: 'Red' }, 21, 7],
      ],
    );
    const inGreek = await t.app.inject({ method: 'GET', url: '/rest/product/product?sku=W1-TEE&locale=el' });
    assert.equal(inGreek.json().data[0].name, 'Βαμβακερό μπλουζάκι');
  });

  test('when the same file is imported again, then nothing changes: no write, no event', async () => {
    await imported(t.app, admin, wooExport('W2'));
    const before = await product('W2-TEE');
    const eventsBefore = await events('W2');
    const again = await imported(t.app, admin, wooExport('W2'));
    assert.deepEqual([again.created, again.updated, again.unchanged, again.errors.length], [0, 0, 5, 0]);
    const after = await product('W2-TEE');
    assert.equal(after.updatedAt, before.updatedAt);
    assert.deepEqual(
      after.variants.map((v) => v.updatedAt),
      before.variants.map((v) => v.updatedAt),
    );
    assert.deepEqual(await events('W2'), eventsBefore);
  });

  test('when a dry run is sent, then the report says what would change and the shop is as it was', async () => {
    const report = await imported(t.app, admin, wooExport('W3'), { dryRun: true });
    assert.equal(report.dryRun, true);
    assert.deepEqual([report.status, report.created, report.errors.length], ['done', 5, 0]);
    assert.equal(await found('W3-MUG'), undefined);
    assert.equal(await found('W3-TEE'), undefined);
    const categories = await queryRows(t.database.db, sql`select id from category where name = 'W3 Kitchen'`);
    assert.equal(categories.length, 0);
  });

  test('when a price and a stock change in the file, then exactly those changes raise their events', async () => {
    await imported(t.app, admin, wooExport('W4'));
    const last = (await events('W4')).at(-1)?.id ?? 0;
    const changed = wooExport('W4').replace('12,50', '13,00').replace(';1;12;', ';1;0;');
    const report = await imported(t.app, admin, changed);
    assert.deepEqual([report.updated, report.unchanged, report.errors.length], [1, 4, 0]);
    const types = (await events('W4', last)).map((e) => e.type);
    assert.deepEqual(types.sort(), ['product.out_of_stock', 'product.price_changed']);
    assert.equal((await product('W4-MUG')).price, 13);
  });

  test('when rows are bad, then each problem is reported by row and column and the good rows land', async () => {
    const file = [
      'SKU,Name,Type,Regular price,Stock,Parent,Attribute 1 name,Attribute 1 value(s)',
      'B-OK,Good one,simple,5.00,1,,,',
      'B-PRICE,Bad price,simple,five,1,,,',
      'B-STOCK,Bad stock,simple,5.00,-3,,,',
      'B-ORPHAN,,variation,5.00,1,NOPE,Size,S',
      ',No SKU,simple,5.00,1,,,',
      'B-OK2,Also good,simple,6.00,,,,',
    ].join('\n');
    const report = await imported(t.app, admin, file);
    assert.equal(report.status, 'done');
    assert.deepEqual(
      report.errors.map((e) => [e.row, e.column]),
      [
        [3, 'Regular price'],
        [4, 'Stock'],
        [5, 'Parent'],
        [6, 'SKU'],
      ],
    );
    assert.match(report.errors[0].message, /not a price/);
    assert.match(report.errors[1].message, /negative/);
    assert.equal(report.created, 2);
    assert.ok(await product('B-OK'));
    assert.ok(await product('B-OK2'));
    assert.equal(await found('B-PRICE'), undefined);
  });

  test('when the header has no SKU column, then the import fails naming the column on row 1', async () => {
    const report = await imported(t.app, admin, 'Name,Regular price\nA thing,1.00\n');
    assert.equal(report.status, 'failed');
    assert.deepEqual(report.errors, [{ row: 1, column: 'SKU', message: 'is missing from the header line' }]);
  });

  test('when the file is not text (an image named .csv), then it is refused with 415', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    const res = await sendCsv(t.app, admin, png, { fileName: 'products.csv' });
    assert.equal(res.statusCode, 415);
    assert.equal(res.json().error.code, 'UNSUPPORTED_MEDIA_TYPE');
  });

  test('when the file is over import.maxBytes, then it is refused with 413', async () => {
    const res = await sendCsv(t.app, admin, `SKU,Name,Regular price\n${'X,Y,1.00\n'.repeat(600)}`);
    assert.equal(res.statusCode, 413);
    assert.equal(res.json().error.code, 'PAYLOAD_TOO_LARGE');
  });

  test('when an import is asked for by a role without Products, then it is refused with 403', async () => {
    const res = await sendCsv(t.app, await adminHeaders(t.app, [6]), 'SKU,Name,Regular price\nR-1,R,1.00\n');
    assert.equal(res.statusCode, 403);
  });

  test('when the catalog is exported, then formula-looking cells start with an apostrophe and import back as they were', async () => {
    const file = [
      ['SKU', 'Name', 'Regular price', 'Description'],
      ['F-1', '=HYPERLINK("http://x")', '1.00', '-2 for you'],
      ['F-2', '@SUM(A1)', '2.00', '+fast'],
    ]
      .map((cells) => csvLine(cells))
      .join('\n');
    assert.deepEqual((await imported(t.app, admin, file)).errors, []);
    const csv = await exported(t.app, admin, '?sku=F-1,F-2');
    assert.ok(csv.includes(`,"'=HYPERLINK(""http://x"")",`), csv);
    assert.ok(csv.includes(",'-2 for you"), csv);
    assert.ok(csv.includes("'@SUM(A1)"), csv);
    assert.ok(!csv.includes('W1-MUG'), 'the list’s filter chose the products');
    const again = await imported(t.app, admin, csv);
    assert.deepEqual([again.unchanged, again.errors.length], [2, 0]);
    assert.equal((await product('F-1')).name, '=HYPERLINK("http://x")');
  });

  test('when the export is asked with the product list’s filters, then only those products are in it', async () => {
    const tee = await product('W1-TEE');
    const csv = await exported(t.app, admin, `?categoryId=${tee.categoryId}`);
    const skus = csv.split(/\r?\n/).slice(1).filter(Boolean).map((line) => line.split(',')[2]);
    assert.deepEqual(skus, ['W1-TEE', 'W1-TEE-S-Red', 'W1-TEE-S-Blue', 'W1-TEE-M-Red']);
  });

  test('when the export is asked with a filter the list refuses, then 400 in the envelope, not a cut download', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/rest/product/export?locale=zz', headers: admin });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().error.code, 'VALIDATION_FAILED');
  });
});
