import assert from 'node:assert/strict';
import { test } from 'node:test';
import { alternatingCpu, alternatingOrder } from '../../bench/alternating.ts';

// The `within` verdicts of `npm run bench` (the Greek list against the default one) compare two
// scenarios measured in alternating slices; a machine getting steadily slower must not make the
// scenario measured later look dearer.

/** Slices of 1,000 requests whose CPU per request is `base` (A) or `base × factor` (B), plus a drift. */
async function measuredUnderDrift(factor: number, driftPerSlice: number) {
  let slice = 0;
  return alternatingCpu(async (isA) => {
    const perRequest = (isA ? 1000 : 1000 * factor) + driftPerSlice * slice++;
    return { requests: 1000, cpuUs: perRequest * 1000 };
  });
}

test('a machine slowing down steadily falls on both scenarios alike', async () => {
  assert.deepEqual(alternatingOrder(2), [true, false, false, true, true, false, false, true]);
  const same = await measuredUnderDrift(1, 40);
  assert.equal(same.a, same.b);
  // Back to back (A's slices first, then B's), the same drift would read 16 % dearer for B.
  const dearer = await measuredUnderDrift(1.12, 40);
  assert.equal(dearer.b - dearer.a, 120);
});
