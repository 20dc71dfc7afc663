import assert from 'node:assert/strict';
import { test } from 'node:test';
import { alternatingCpu } from '../../bench/alternating.ts';

// The `within` verdicts of `npm run bench` (the Greek list against the default one) compare two
// scenarios measured in alternating slices; a machine getting steadily slower must not make the
// scenario measured later look dearer, nor one slice hit by a neighbour's burst decide the verdict.

/** Slices of 1,000 requests at `base` µs (A) or `base × factor` (B), plus `extra(slice)` µs. */
function measuredWith(factor: number, extra: (slice: number) => number) {
  let slice = 0;
  return alternatingCpu(async (isA) => {
    const perRequest = (isA ? 1000 : 1000 * factor) + extra(slice++);
    return { requests: 1000, cpuUs: perRequest * 1000 };
  });
}

test('a steady drift falls on both scenarios alike, and one burst does not decide', async () => {
  const drift = (slice: number) => 40 * slice;
  const same = await measuredWith(1, drift);
  assert.equal(same.a, same.b);
  assert.equal(same.ratio, 1);
  // Measured back to back (A's slices first, then B's), this drift would read B 16 % dearer.
  const dearer = await measuredWith(1.12, drift);
  assert.equal(dearer.b - dearer.a, 120);
  // A burst of +50 % in one slice of A: the totals move, the median of the groups does not.
  const burst = await measuredWith(1, (slice) => (slice === 4 ? 500 : 0));
  assert.ok(burst.a > burst.b);
  assert.equal(burst.ratio, 1);
  assert.deepEqual(
    burst.ratios.map((r) => r.toFixed(3)),
    ['1.000', '1.250', '1.000'],
  );
});
