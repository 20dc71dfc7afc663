import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  allocate,
  assertCents,
  fromCents,
  MoneyOverflowError,
  percentOf,
  sumCents,
  toCents,
  vatFromGross,
} from '../../src/lib/money.ts';

const seed = Number(process.env.FC_SEED ?? Date.now());
const runs = { numRuns: 1000, seed };

describe('toCents', () => {
  test('when given decimal text or numbers, then it returns exact cents', () => {
    assert.equal(toCents('19.99'), 1999);
    assert.equal(toCents(19.99), 1999);
    assert.equal(toCents(0.29), 29);
    assert.equal(toCents('0.1'), 10);
    assert.equal(toCents(5), 500);
    assert.equal(toCents('-3.5'), -350);
    assert.equal(toCents('0.00'), 0);
    assert.ok(Object.is(toCents('-0'), 0));
  });

  test('when the amount has more than two decimals, then it throws a RangeError', () => {
    assert.throws(() => toCents('1.005'), RangeError);
    assert.throws(() => toCents(0.1 + 0.2), RangeError);
    assert.throws(() => toCents('1.500'), RangeError);
    assert.throws(() => toCents(1.005 * 1000), RangeError); // 1004.9999999999999: float drift is refused
  });

  test('when the amount is not a plain finite decimal, then it throws a RangeError', () => {
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1e21, 1e-7]) {
      assert.throws(() => toCents(bad), RangeError, String(bad));
    }
    for (const bad of ['', 'abc', '1,50', '1.', '.5', ' 1', '+1', '1e3', '0x10']) {
      assert.throws(() => toCents(bad), RangeError, bad);
    }
    assert.throws(() => toCents('99999999999999999'), RangeError);
  });
});

describe('fromCents', () => {
  test('when given cents, then it returns the two-decimal JSON number', () => {
    assert.equal(fromCents(1999), 19.99);
    assert.equal(fromCents(1), 0.01);
    assert.equal(fromCents(10), 0.1);
    assert.equal(fromCents(0), 0);
    assert.equal(fromCents(-350), -3.5);
    assert.equal(fromCents(123456789), 1234567.89);
    assert.equal(JSON.stringify(fromCents(30)), '0.3');
  });

  test('when given a non-integer, then it throws a RangeError', () => {
    assert.throws(() => fromCents(1.5), RangeError);
    assert.throws(() => fromCents(Number.NaN), RangeError);
  });

  test('when round-tripping any safe amount, then toCents(fromCents(c)) === c', () => {
    fc.assert(
      fc.property(fc.integer({ min: -(10 ** 13), max: 10 ** 13 }), (c) => toCents(fromCents(c)) === c),
      runs,
    );
  });
});

describe('percentOf', () => {
  test('when the exact result has half a cent or more, then it rounds up', () => {
    assert.equal(percentOf(1999, 15), 300); // 299.85
    assert.equal(percentOf(1000, 12.5), 125);
    assert.equal(percentOf(1, 50), 1); // 0.5 → 1
    assert.equal(percentOf(1, 49.99), 0);
    assert.equal(percentOf(333, 10), 33); // 33.3
    assert.equal(percentOf(335, 10), 34); // 33.5
    assert.equal(percentOf(10000, 100), 10000);
    assert.equal(percentOf(0, 37), 0);
    assert.equal(percentOf(-335, 10), -34);
  });

  test('when compared with exact rational arithmetic, then it always matches half-up', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 9 }), fc.integer({ min: 0, max: 10000 }), (c, bp) => {
        const exact2 = BigInt(c) * BigInt(bp) * 2n; // 2 × c × bp / 10000
        const expected = Number((exact2 + 10000n) / 20000n);
        return percentOf(c, bp / 100) === expected;
      }),
      runs,
    );
  });

  test('when the percent is whole, then plain-number arithmetic gives the exact half-away-from-zero result, up to 2^53 and past it', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: -(10 ** 9), max: 10 ** 9 }), fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER })),
        fc.integer({ min: 0, max: 100 }),
        (c, percent) => {
          const n = BigInt(c) * BigInt(percent);
          const abs = n < 0n ? -n : n;
          const q = (2n * abs + 100n) / 200n;
          const expected = Number(n < 0n ? -q : q);
          if (!Number.isSafeInteger(expected)) return true; // past the cents a service can hold
          return percentOf(c, percent) === expected;
        },
      ),
      runs,
    );
  });

  test('when the percent is not a plain decimal, then it throws a RangeError', () => {
    assert.throws(() => percentOf(100, Number.NaN), RangeError);
    assert.throws(() => percentOf(1.5, 10), RangeError);
  });
});

describe('vatFromGross', () => {
  test('when splitting gross at 19 %, then vat rounds half-up and net + vat = gross', () => {
    assert.deepEqual(vatFromGross(11900, 19), { net: 10000, vat: 1900, gross: 11900 });
    assert.deepEqual(vatFromGross(1999, 19), { net: 1680, vat: 319, gross: 1999 }); // 319.16
    assert.deepEqual(vatFromGross(1070, 7), { net: 1000, vat: 70, gross: 1070 });
    assert.deepEqual(vatFromGross(100, 0), { net: 100, vat: 0, gross: 100 });
    assert.deepEqual(vatFromGross(0, 19), { net: 0, vat: 0, gross: 0 });
    assert.deepEqual(vatFromGross(1055, 5.5), { net: 1000, vat: 55, gross: 1055 });
  });

  test('when vat is exactly half a cent, then it rounds up', () => {
    // at 100 % the VAT is exactly half of the gross
    assert.equal(vatFromGross(1, 100).vat, 1); // 0.5 → 1
    assert.equal(vatFromGross(3, 100).vat, 2); // 1.5 → 2
  });

  test('when given any gross and rate, then net + vat === gross and 0 ≤ vat ≤ gross', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 10 }), fc.integer({ min: 0, max: 5000 }), (g, r100) => {
        const { net, vat, gross } = vatFromGross(g, r100 / 100);
        return gross === g && net + vat === g && vat >= 0 && vat <= g;
      }),
      runs,
    );
  });

  test('when the rate is negative, then it throws a RangeError', () => {
    assert.throws(() => vatFromGross(100, -1), RangeError);
  });
});

describe('allocate', () => {
  test('when splitting by weights, then largest remainders take the leftover cents', () => {
    assert.deepEqual(allocate(100, [1, 1, 1]), [34, 33, 33]);
    assert.deepEqual(allocate(10, [700, 300]), [7, 3]);
    assert.deepEqual(allocate(5, [1, 2]), [2, 3]); // 1.67 / 3.33 → remainder favours the first
    assert.deepEqual(allocate(0, [5, 7]), [0, 0]);
    assert.deepEqual(allocate(0, []), []);
    assert.deepEqual(allocate(7, [0, 10]), [0, 7]);
  });

  test('when the total is non-zero and every weight is zero, then it throws a RangeError', () => {
    assert.throws(() => allocate(1, [0, 0]), RangeError);
    assert.throws(() => allocate(-1, [1]), RangeError);
    assert.throws(() => allocate(1, [-1, 2]), RangeError);
  });

  test('when splitting any total ≤ Σ weights, then parts sum exactly and none exceeds its weight', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 10 ** 8 }), { minLength: 1, maxLength: 8 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (weights, share) => {
          const sum = weights.reduce((a, b) => a + b, 0);
          fc.pre(sum > 0);
          const total = Math.floor(sum * share);
          const parts = allocate(total, weights);
          return (
            parts.reduce((a, b) => a + b, 0) === total &&
            parts.every((p, i) => Number.isSafeInteger(p) && p >= 0 && p <= weights[i])
          );
        },
      ),
      runs,
    );
  });
});

/** The largest-remainder split in exact BigInt arithmetic, for comparison. */
function allocateExactly(total: number, weights: number[]): number[] {
  const t = BigInt(total);
  const ws = weights.map(BigInt);
  const sum = ws.reduce((a, b) => a + b, 0n);
  const parts = ws.map((w) => (t * w) / sum);
  let left = t - parts.reduce((a, b) => a + b, 0n);
  const order = ws.map((w, i) => ({ i, rem: (t * w) % sum })).sort((a, b) => (a.rem === b.rem ? a.i - b.i : a.rem > b.rem ? -1 : 1));
  for (const { i } of order) {
    if (left === 0n) break;
    parts[i] += 1n;
    left -= 1n;
  }
  return parts.map(Number);
}

describe('allocate against exact arithmetic', () => {
  test('when totals and weights are small or near 2^53, then the parts are the exact largest-remainder split', () => {
    const amount = fc.oneof(fc.integer({ min: 0, max: 10 ** 6 }), fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }));
    fc.assert(
      fc.property(amount, fc.array(amount, { minLength: 1, maxLength: 6 }), (total, weights) => {
        const sum = weights.reduce((a, b) => a + BigInt(b), 0n);
        fc.pre(sum > 0n && BigInt(total) <= sum);
        assert.deepEqual(allocate(total, weights), allocateExactly(total, weights));
      }),
      runs,
    );
  });
});

describe('assertCents and sumCents', () => {
  test('when a value is not whole safe cents, then it throws a RangeError', () => {
    assert.equal(assertCents(5), 5);
    assert.throws(() => assertCents(0.5), RangeError);
    assert.throws(() => assertCents(Number.MAX_SAFE_INTEGER + 1), RangeError);
    assert.equal(sumCents([1, 2, 3]), 6);
    assert.throws(() => sumCents([Number.MAX_SAFE_INTEGER, 1]), RangeError);
    assert.throws(() => sumCents([1, 0.5]), RangeError);
  });

  test('when a whole amount is too large to count exactly, then it is a MoneyOverflowError; a fraction is not', () => {
    for (const huge of [Number.MAX_SAFE_INTEGER + 1, 3.8e16, Number.POSITIVE_INFINITY, -1e300]) {
      assert.throws(() => assertCents(huge), MoneyOverflowError, String(huge));
    }
    assert.throws(() => sumCents([Number.MAX_SAFE_INTEGER, 1]), MoneyOverflowError);
    assert.throws(() => percentOf(Number.MAX_SAFE_INTEGER, 200), MoneyOverflowError);
    for (const defect of [0.5, Number.NaN, 1e15 + 0.5]) {
      assert.throws(
        () => assertCents(defect),
        (e: unknown) => e instanceof RangeError && !(e instanceof MoneyOverflowError),
        String(defect),
      );
    }
  });
});
