import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { adminHeaders } from '../helpers/catalog-factories.ts';
import { csvLine, IMPORT_APP_CONFIG, imported, sendCsv } from './import-fixtures.ts';

// "Download the rows in error": the failing rows of an import as the file wrote them, with its
// header and a column saying what was wrong; fixed in a spreadsheet and imported again, they land.

const HEADER = ['SKU', 'Name', 'Regular price', 'Stock', 'Description', 'Tags'];

/** A file as a spreadsheet set to German writes it: `;` between cells, decimal commas. */
const FILE = `\uFEFF${[
  HEADER,
  ['RIE-1', 'Clay pot', '9,90', '4', 'Fine', 'garden'],
  ['RIE-2', 'Watering can', 'twelve', '2', '=HYPERLINK("http://x")', 'garden; tools'],
  ['RIE-3', '', '3,50', '-1', 'Line one\nline two', ''],
  ['RIE-4', 'Rake', '5,00', '1', '', ''],
]
  .map((cells) => csvLine(cells, ';'))
  .join('\r\n')}\r\n`;

describe('catalog import: the rows in error', () => {
  let t: TestApp;
  let admin: Record<string, string>;

  before(async () => {
    t = await startTestApp({ config: IMPORT_APP_CONFIG });
    admin = await adminHeaders(t.app, [5]);
  });
  after(() => t.close());

  const rowsInError = (jobId: number) =>
    t.app.inject({ method: 'GET', url: `/rest/product/import/${jobId}/rows-in-error`, headers: admin });

  test('when an import has failing rows, then their file gives them whole, fixed they land', async () => {
    const report = await imported(t.app, admin, FILE);
    assert.equal(report.created, 2);
    assert.deepEqual(
      report.errors.map((e) => [e.row, e.column]),
      [
        [3, 'Regular price'],
        [4, 'Name'],
        [4, 'Stock'],
      ],
    );

    const res = await rowsInError(report.id);
    assert.equal(res.statusCode, 200);
    assert.match(res.headers['content-type'] as string, /^text\/csv/);
    assert.match(res.headers['content-disposition'] as string, new RegExp(`import-${report.id}-rows-in-error\\.csv`));
    assert.ok(res.body.startsWith('\uFEFF'), 'a byte-order mark, as the export');
    const records = parse(res.body, { bom: true, delimiter: ';' }) as string[][];
    assert.deepEqual(records, [
      [...HEADER, 'Import problems'],
      ['RIE-2', 'Watering can', 'twelve', '2', `'=HYPERLINK("http://x")`, 'garden; tools', 'Regular price: "twelve" is not a price'],
      // A negative number looks like a formula to a spreadsheet: guarded as the export guards it.
      ['RIE-3', '', '3,50', "'-1", 'Line one\nline two', '', 'Name: is required; Stock: must not be negative'],
    ]);

    // The merchant fixes the cells and imports the same file again: those rows land.
    const fixed = res.body.replace('twelve', '12,00').replace('RIE-3;;', 'RIE-3;Seed tray;').replace(";'-1;", ';1;');
    const again = await imported(t.app, admin, fixed);
    assert.deepEqual(again.errors, []);
    assert.deepEqual([again.created, again.updated], [2, 0]);
    const can = (await t.app.inject({ method: 'GET', url: '/rest/product/product?sku=RIE-2', headers: admin })).json().data[0];
    assert.deepEqual([can.name, can.price, can.description], ['Watering can', 12, '=HYPERLINK("http://x")']);
    const tray = (await t.app.inject({ method: 'GET', url: '/rest/product/product?sku=RIE-3', headers: admin })).json().data[0];
    assert.deepEqual([tray.name, tray.description, tray.stockQty], ['Seed tray', 'Line one\nline two', 1]);

    const none = await rowsInError(again.id);
    assert.deepEqual(parse(none.body, { bom: true, delimiter: ';' }), [[...HEADER, 'Import problems']]);
  });

  test('when the file was guarded by the export, then its rows in error read back the same', async () => {
    const file = `${csvLine(['SKU', 'Name', 'Regular price'])}\n${csvLine(['RIE-G', "'=1+2", 'x'])}\n`;
    const report = await imported(t.app, admin, file);
    const records = parse((await rowsInError(report.id)).body, { bom: true }) as string[][];
    assert.deepEqual(records[1], ['RIE-G', "'=1+2", 'x', 'Regular price: "x" is not a price']);
  });

  test('when the import is unknown or still waiting, then 404 and 409', async () => {
    assert.equal((await rowsInError(999_999)).statusCode, 404);
    // Without the job queue's workers (the test configuration's default) the job stays queued.
    const idle = await startTestApp();
    try {
      const headers = await adminHeaders(idle.app, [5]);
      const jobId = (await sendCsv(idle.app, headers, FILE)).json().data.jobId as number;
      const res = await idle.app.inject({ method: 'GET', url: `/rest/product/import/${jobId}/rows-in-error`, headers });
      assert.deepEqual([res.statusCode, res.json().error.code], [409, 'IMPORT_NOT_OVER']);
    } finally {
      await idle.close();
    }
  });
});
