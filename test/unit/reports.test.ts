import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { csvField, csvRow } from '../../src/lib/csv.ts';
import { changedFields } from '../../src/modules/audit/audit.ts';
import { periodOf, todayIn } from '../../src/modules/reports/report-period.ts';

describe('report periods', () => {
  const noon = new Date('2026-03-10T12:00:00Z');

  test('when no dates are given, then the 30 days ending today in the shop’s zone', () => {
    assert.deepEqual(periodOf({}, 'UTC', noon), {
      from: '2026-02-09',
      toExclusive: '2026-03-11',
      timeZone: 'UTC',
    });
  });

  test('when it is already tomorrow in the shop’s zone, then today is that day', () => {
    const late = new Date('2026-03-10T23:30:00Z');
    assert.equal(todayIn('UTC', late), '2026-03-10');
    assert.equal(todayIn('Europe/Athens', late), '2026-03-11');
    assert.equal(todayIn('America/New_York', late), '2026-03-10');
  });

  test('when from is after to, a date does not exist or the period is too long, then 400', () => {
    for (const query of [
      { from: '2026-03-05', to: '2026-03-01' },
      { from: '2026-02-30', to: '2026-03-01' },
      { from: '2000-01-01', to: '2026-01-01' },
    ]) {
      assert.throws(
        () => periodOf(query, 'UTC', noon),
        (err: { status?: number }) => err.status === 400,
        JSON.stringify(query),
      );
    }
    assert.deepEqual(
      periodOf({ from: '2026-03-01', to: '2026-03-01' }, 'UTC', noon).toExclusive,
      '2026-03-02',
    );
  });
});

describe('CSV', () => {
  test('when a text holds a comma, a quote or a line break, then it is quoted; a formula is defused', () => {
    assert.equal(csvRow(['a', 1, null, true]), 'a,1,,true\r\n');
    assert.equal(csvField('Smith, Jr.'), '"Smith, Jr."');
    assert.equal(csvField('say "hi"'), '"say ""hi"""');
    assert.equal(csvField('two\nlines'), '"two\nlines"');
    assert.equal(csvField('=SUM(A1:A9)'), "'=SUM(A1:A9)");
    assert.equal(csvField('-5'), "'-5");
    assert.equal(csvField(-5), '-5', 'numbers are numbers');
  });

  test('when any text is written and read back by an RFC 4180 reader, then it comes back (formulas with their quote)', () => {
    const read = (field: string) =>
      field.startsWith('"') ? field.slice(1, -1).replaceAll('""', '"') : field;
    fc.assert(
      fc.property(fc.string(), (text) => {
        const back = read(csvField(text));
        assert.equal(back, /^[=+\-@\t\r]/.test(text) ? `'${text}` : text);
      }),
    );
  });
});

describe('audit changes', () => {
  test('when fields differ, then only those are kept with both values; unset before reads as null', () => {
    assert.deepEqual(
      changedFields({ price: 10, stockQty: 5, roles: [1] }, { price: 12.5, stockQty: 5, roles: [1] }),
      {
        price: { before: 10, after: 12.5 },
      },
    );
    assert.deepEqual(changedFields(null, { roles: [4] }), { roles: { before: null, after: [4] } });
    assert.deepEqual(changedFields({ roles: [4] }, { roles: [4, 7], name: undefined }), {
      roles: { before: [4], after: [4, 7] },
    });
  });
});
