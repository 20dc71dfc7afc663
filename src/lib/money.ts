// Money is kept as integer minor units (cents) everywhere inside the service; floats appear
// only at the JSON edge. Every rounding and every split of an amount happens here, once.

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/** Splits a finite decimal into an exact fraction numerator / 10^scale, refusing exponent forms. */
function toFraction(value: number | string, what: string): { num: bigint; den: bigint; scale: number } {
  if (typeof value === 'number' && !Number.isFinite(value)) throw new RangeError(`${what} is not finite`);
  const match = DECIMAL.exec(String(value));
  if (!match) throw new RangeError(`${what} is not a plain decimal: ${String(value)}`);
  const [, sign, whole, frac = ''] = match;
  const num = BigInt(`${sign}${whole}${frac}`);
  return { num, den: 10n ** BigInt(frac.length), scale: frac.length };
}

/** Integer division rounding half away from zero (half-up for the non-negative amounts we charge). */
function divRound(num: bigint, den: bigint): bigint {
  if (den < 0n) return divRound(-num, -den);
  const abs = num < 0n ? -num : num;
  const q = (2n * abs + den) / (2n * den);
  return num < 0n ? -q : q;
}

/**
 * An amount too large to count exactly in cents (beyond 2^53). It comes from the input (a huge price
 * times a huge quantity or weight), not from a defect, so callers turn it into a 422 for the client.
 */
export class MoneyOverflowError extends RangeError {}

function toSafe(value: bigint, what: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new MoneyOverflowError(`${what} is outside the safe integer range`);
  return n === 0 ? 0 : n;
}

/** Asserts a value is whole cents, so a float never leaks into a money computation unnoticed. */
export function assertCents(cents: number, what = 'amount'): number {
  if (Number.isSafeInteger(cents)) return cents;
  if (Number.isInteger(cents) || cents === Number.POSITIVE_INFINITY || cents === Number.NEGATIVE_INFINITY) {
    throw new MoneyOverflowError(`${what} is too large to count in whole cents: ${cents}`);
  }
  throw new RangeError(`${what} must be whole cents, got ${cents}`);
}

/** Sums cents and checks the sum is still whole, safe cents (an overflow would silently lose cents). */
export function sumCents(values: readonly number[], what = 'sum'): number {
  return assertCents(
    values.reduce((a, b) => a + assertCents(b, what), 0),
    what,
  );
}

/**
 * Parses a decimal amount from JSON, a setting or the database ("19.99" or 19.99) into cents exactly,
 * from its decimal text rather than by multiplying a float. More than two decimals → RangeError.
 */
export function toCents(decimal: number | string): number {
  // Whole amounts (most limits and thresholds) need no parsing: × 100 is exact below 2^53.
  if (typeof decimal === 'number' && Number.isSafeInteger(decimal) && Number.isSafeInteger(decimal * 100)) {
    return decimal * 100 || 0;
  }
  const { num, scale } = toFraction(decimal, 'amount');
  if (scale > 2) throw new RangeError(`amount has more than two decimals: ${String(decimal)}`);
  return toSafe(num * 10n ** BigInt(2 - scale), 'amount');
}

/** Converts cents to the JSON number with at most two decimals (1999 → 19.99), via its decimal text. */
export function fromCents(cents: number): number {
  assertCents(cents);
  const abs = Math.abs(cents);
  const rest = abs % 100;
  const text = `${cents < 0 ? '-' : ''}${(abs - rest) / 100}.${String(rest).padStart(2, '0')}`;
  return Number(text);
}

/**
 * The one place a percentage of money is rounded: cents × percent / 100, half-up to the cent.
 * percent may be fractional (12.5); the arithmetic is exact (BigInt), so 15 % of 1999 is 300.
 */
export function percentOf(cents: number, percent: number): number {
  assertCents(cents);
  // A whole percent of an amount whose doubled product stays below 2^53: the same half-up rounding
  // in plain numbers (every operation exact), without BigInt's allocations on the quote's hot path.
  if (Number.isInteger(percent) && Number.isSafeInteger(2 * Math.abs(cents * percent) + 100)) {
    const abs = Math.abs(cents * percent);
    const doubled = 2 * abs + 100;
    const q = (doubled - (doubled % 200)) / 200;
    return (cents * percent < 0 ? -q : q) || 0;
  }
  const p = toFraction(percent, 'percent');
  return toSafe(divRound(BigInt(cents) * p.num, 100n * p.den), 'percentOf');
}

/** Net / VAT / gross of one rate. */
export interface VatSplit {
  net: number;
  vat: number;
  gross: number;
}

/**
 * Splits a VAT-inclusive amount: vat = round half-up(gross × rate / (100 + rate)), net = gross − vat,
 * so net + vat === gross always holds. Prices are gross, so VAT is only ever derived, never added.
 */
export function vatFromGross(grossCents: number, ratePercent: number): VatSplit {
  assertCents(grossCents);
  const r = toFraction(ratePercent, 'VAT rate');
  if (r.num < 0n) throw new RangeError('VAT rate must not be negative');
  const vat = toSafe(divRound(BigInt(grossCents) * r.num, 100n * r.den + r.num), 'vat');
  return { net: grossCents - vat, vat, gross: grossCents };
}

/**
 * Splits `total` cents over `weights` proportionally with the largest-remainder method, so the parts
 * sum to `total` exactly and, when total ≤ Σ weights, no part exceeds its weight. Ties go to the earlier
 * weight. Used to spread an order-level discount over VAT rates without losing or inventing a cent.
 */
export function allocate(total: number, weights: readonly number[]): number[] {
  assertCents(total, 'total');
  if (total < 0) throw new RangeError('allocate: total must not be negative');
  for (const w of weights) assertCents(w, 'weight');
  if (weights.some((w) => w < 0)) throw new RangeError('allocate: weights must not be negative');
  if (total === 0) return weights.map(() => 0);
  let sum = 0;
  let largest = 0;
  for (const w of weights) {
    sum += w;
    largest = Math.max(largest, w);
  }
  if (sum === 0) throw new RangeError('allocate: cannot split a non-zero total over zero weights');
  if (Number.isSafeInteger(sum) && Number.isSafeInteger(total * largest)) return allocateSafe(total, weights, sum);
  const ws = weights.map((w) => BigInt(w));
  const bigSum = ws.reduce((a, b) => a + b, 0n);
  const t = BigInt(total);
  const parts = ws.map((w) => (t * w) / bigSum);
  let left = t - parts.reduce((a, b) => a + b, 0n);
  const order = ws
    .map((w, i) => ({ i, rem: (t * w) % bigSum }))
    .sort((a, b) => (a.rem === b.rem ? a.i - b.i : a.rem > b.rem ? -1 : 1));
  for (const { i } of order) {
    if (left === 0n) break;
    parts[i] += 1n;
    left -= 1n;
  }
  return parts.map((p) => toSafe(p, 'allocate'));
}

/** allocate's arithmetic in plain numbers, when every product total × weight is below 2^53 (exact). */
function allocateSafe(total: number, weights: readonly number[], sum: number): number[] {
  const parts = weights.map((w) => (total * w - ((total * w) % sum)) / sum);
  let left = total - parts.reduce((a, b) => a + b, 0);
  const order = weights
    .map((w, i) => ({ i, rem: (total * w) % sum }))
    .sort((a, b) => (a.rem === b.rem ? a.i - b.i : b.rem - a.rem));
  for (const { i } of order) {
    if (left === 0) break;
    parts[i] += 1;
    left -= 1;
  }
  return parts.map((p) => p || 0);
}
