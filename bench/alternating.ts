/**
 * A `within` target (one scenario's CPU per request against another's, e.g. the Greek list against
 * the default one) measured in alternating slices, A B B A A B B A. On this shared machine the CPU
 * per request of one scenario moves by ±5-10 % from one 10 s run to the next, as much as the
 * target allows; slices in this order give both scenarios the same minutes, so a drift of the
 * machine that is linear over the measurement falls on both alike.
 */

/** What one slice measured: requests answered and the CPU µs they took (service and database). */
export interface Slice {
  requests: number;
  cpuUs: number;
}

/** The order of the slices: `pairs` times A B B A, as booleans (true: A). */
export function alternatingOrder(pairs: number): boolean[] {
  return Array.from({ length: pairs }, () => [true, false, false, true]).flat();
}

/**
 * CPU µs per request of A and of B over their slices (totals over totals, so a slice that
 * answered more requests weighs more).
 */
export async function alternatingCpu(
  measure: (a: boolean) => Promise<Slice>,
  pairs = 2,
): Promise<{ a: number; b: number }> {
  const sums = { a: { requests: 0, cpuUs: 0 }, b: { requests: 0, cpuUs: 0 } };
  for (const isA of alternatingOrder(pairs)) {
    const slice = await measure(isA);
    const sum = isA ? sums.a : sums.b;
    sum.requests += slice.requests;
    sum.cpuUs += slice.cpuUs;
  }
  const per = (s: Slice) => Math.round(s.cpuUs / Math.max(1, s.requests));
  return { a: per(sums.a), b: per(sums.b) };
}
