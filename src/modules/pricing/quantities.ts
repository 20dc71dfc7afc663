// Quantities and weights of the checkout quote, kept as whole numbers like the money.

/** Asserts a quantity is a whole number ≥ 0, so a bad caller fails loudly instead of quoting nonsense. */
export function assertCount(n: number, what: string): number {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`${what} must be a whole number ≥ 0, got ${n}`);
  return n;
}

/** Weights are summed in whole grams so 0.1 + 0.2 kg never drifts across a kilogram boundary. */
export function toGrams(kg: number, what: string): number {
  if (!Number.isFinite(kg) || kg < 0) throw new RangeError(`${what} must be a finite weight ≥ 0, got ${kg}`);
  return Math.round(kg * 1000);
}
