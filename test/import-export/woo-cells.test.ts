import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { countRows, csvText, detectDelimiter, readCsv } from '../../src/modules/catalog-io/csv-reader.ts';
import {
  guardFormula,
  readCategoryPath,
  readList,
  readPrice,
  readStock,
  unguardFormula,
  writeList,
  writePrice,
} from '../../src/modules/catalog-io/woo-cells.ts';
import { readHeader, readRow } from '../../src/modules/catalog-io/woo-row.ts';

// The reader and the cells as plain functions: no server, no database.

describe('CSV cells and rows, read and written', () => {
  test('when a price is written and read back, then it is the same whole cents', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000_000 }), (cents) => {
        assert.equal(readPrice(writePrice(cents)), cents);
      }),
    );
  });

  test('when a price has a decimal comma, then it reads as the decimal point would', () => {
    assert.equal(readPrice('12,50'), 1250);
    assert.equal(readPrice(' 7 '), 700);
    assert.equal(readPrice(''), null);
    assert.throws(() => readPrice('twelve'), /not a price/);
    assert.throws(() => readPrice('1.005'), /two decimals/);
    assert.throws(() => readPrice('-1'), /negative/);
    assert.throws(() => readStock('-3'), /negative/);
    assert.throws(() => readStock('99999999999'), /largest/);
  });

  test('when a list of texts is written and read back, then the same items come back', () => {
    const item = fc
      .string({ minLength: 1, maxLength: 12 })
      .map((s) => s.replaceAll('\\', '').trim())
      .filter((s) => s !== '');
    fc.assert(
      fc.property(fc.array(item, { maxLength: 5 }), (items) => {
        assert.deepEqual(readList(writeList(items)), items);
      }),
    );
  });

  test('when a text is guarded against formulas and read back, then it is the same text and never starts a formula', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 8 }), (text) => {
        const written = guardFormula(text);
        assert.ok(!/^[=+\-@]/.test(written));
        assert.equal(unguardFormula(written), text);
      }),
    );
  });

  test('when a category path is read, then it is the first path’s names from the root', () => {
    assert.deepEqual(readCategoryPath('Clothing > T-shirts, Gifts'), ['Clothing', 'T-shirts']);
    assert.equal(readCategoryPath(''), null);
    assert.throws(() => readCategoryPath('A > > B'), /empty category name/);
  });

  test('when the header line uses semicolons, then the file is read with them, quotes and newlines kept', async () => {
    const text = '\uFEFFSKU;Name;Description\r\nA-1;"Mug; large";"two\r\nlines"\r\n';
    assert.equal(detectDelimiter(text), ';');
    const records = [];
    for await (const r of readCsv(text)) records.push(r);
    assert.deepEqual(records, [
      { row: 1, cells: ['SKU', 'Name', 'Description'] },
      { row: 2, cells: ['A-1', 'Mug; large', 'two\r\nlines'] },
    ]);
    assert.equal(await countRows(text), 1);
  });

  test('when bytes are not UTF-8 text, then they are not a CSV file', () => {
    assert.equal(csvText(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00])), null);
    assert.equal(csvText(Buffer.from([0xff, 0xfe, 0x41])), null);
    assert.equal(csvText(Buffer.from('\uFEFFSKU,Name\n')), 'SKU,Name\n');
  });

  test('when a row has problems, then each is named by its row and column', () => {
    const { header } = readHeader(['SKU', 'Name', 'Regular price', 'Stock', 'Name:de']);
    const { value, problems } = readRow(header, { row: 7, cells: ['', 'X', 'abc', '-1', 'Becher'] }, ['el']);
    assert.equal(value, null);
    assert.deepEqual(
      problems.map((p) => p.column),
      ['SKU', 'Regular price', 'Stock', 'Name:de'],
    );
    assert.ok(problems.every((p) => p.row === 7));
  });

  test('when the header misses SKU or Name, then the problem is on row 1 in that column', () => {
    assert.deepEqual(readHeader(['ID', 'Regular price']).problems.map((p) => [p.row, p.column]), [
      [1, 'SKU'],
      [1, 'Name'],
    ]);
  });
});
