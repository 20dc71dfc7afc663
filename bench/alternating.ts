/**
 * A `within` target (one scenario's CPU per request against another's, e.g. the Greek list against
 * the default one) measured in alternating slices, A B B A, several times. On this shared machine
 * the CPU per request of one scenario moves by ±5-10 % from one 10 s run to the next, as much as
 * the target allows: in this order both scenarios get the same minutes, so a drift of the machine
 * that is linear over a group falls on both alike, and the median of the groups' ratios is not
 * moved by one group that a neighbour's burst hit.
 */

/** What one slice measured: requests answered and the CPU µs they took (service and database). */
export interface Slice {
  requests: number;
  cpuUs: number;
}

/** The order of the slices in one group: A B B A, as booleans (true: A). */
export const GROUP = [true, false, false, true] as const;

const perRequest = (s: Slice) => s.cpuUs / Math.max(1, s.requests);

/**
 * CPU µs per request of A and of B over all their slices, and the median over the groups of A's
 * CPU per request divided by B's (`ratios`, one per group, in the order measured).
 */
export async function alternatingCpu(
  measure: (a: boolean) => Promise<Slice>,
  groups = 3,
): Promise<{ a: number; b: number; ratio: number; ratios: number[] }> {
  const all = { a: { requests: 0, cpuUs: 0 }, b: { requests: 0, cpuUs: 0 } };
  const ratios: number[] = [];
  for (let g = 0; g < groups; g++) {
    const group = { a: { requests: 0, cpuUs: 0 }, b: { requests: 0, cpuUs: 0 } };
    for (const isA of GROUP) {
      const slice = await measure(isA);
      for (const sum of isA ? [all.a, group.a] : [all.b, group.b]) {
        sum.requests += slice.requests;
        sum.cpuUs += slice.cpuUs;
      }
    }
    ratios.push(perRequest(group.a) / perRequest(group.b));
  }
  const sorted = [...ratios].sort((x, y) => x - y);
  const ratio =
    sorted.length % 2
      ? sorted[(sorted.length - 1) / 2]
      : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
  return { a: Math.round(perRequest(all.a)), b: Math.round(perRequest(all.b)), ratio, ratios };
}
