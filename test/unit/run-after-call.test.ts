import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runAfterCall } from '../../src/lib/run-after-call.ts';

// The table versions' catch-up after a write (src/resources/table-versions.ts) relies on this: a
// caller is never answered by a read that began before it asked.

function controlledRuns() {
  const runs: { resolve: () => void; reject: (e: Error) => void }[] = [];
  const run = () =>
    new Promise<void>((resolve, reject) => {
      runs.push({ resolve, reject });
    });
  return { runs, run };
}

const settled = async (p: Promise<unknown>) => {
  let done = false;
  p.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((r) => setImmediate(r));
  return done;
};

test('when calls arrive while a run is under way, then they wait for one shared run that starts after it', async () => {
  const { runs, run } = controlledRuns();
  const call = runAfterCall(run);
  const first = call();
  const second = call();
  const third = call();
  assert.equal(runs.length, 1);
  runs[0]?.resolve();
  assert.equal(await settled(first), true);
  assert.equal(await settled(second), false, 'the run that began before the call must not answer it');
  assert.equal(runs.length, 2);
  runs[1]?.resolve();
  assert.equal(await settled(second), true);
  assert.equal(await settled(third), true);
  assert.equal(runs.length, 2);
  const later = call();
  assert.equal(runs.length, 3);
  runs[2]?.resolve();
  await later;
});

test('when a run fails, then its callers see the failure and the calls behind it still get a run', async () => {
  const { runs, run } = controlledRuns();
  const call = runAfterCall(run);
  const first = call();
  const second = call();
  runs[0]?.reject(new Error('lost'));
  await assert.rejects(first, /lost/);
  await new Promise((r) => setImmediate(r));
  assert.equal(runs.length, 2);
  runs[1]?.resolve();
  await second;
});
