import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { derivedWhileSteady, runningAt, windowed } from '../../src/resources/index.ts';

// What the kept promotions give at a time is remembered while no promotion starts or ends: a sale
// that starts or ends must show at that instant, with no write.
describe('kept windows', () => {
  const kept = [windowed('open', null, null), windowed('from 10', 10, null), windowed('until 20', null, 20)];

  test('when a promotion starts or ends, then what is derived of the running ones changes at that instant', () => {
    let derivations = 0;
    const names = derivedWhileSteady((k: readonly (typeof kept)[number][], now: Date) => {
      derivations += 1;
      return runningAt(k, now).join(',');
    });
    assert.equal(names(kept, new Date(5)), 'open,until 20');
    assert.equal(names(kept, new Date(9)), 'open,until 20');
    assert.equal(derivations, 1, 'nothing started or ended between 5 and 9');
    assert.equal(names(kept, new Date(10)), 'open,from 10,until 20');
    assert.equal(names(kept, new Date(19)), 'open,from 10,until 20');
    assert.equal(names(kept, new Date(20)), 'open,from 10');
    assert.equal(names(kept, new Date(3)), 'open,until 20', 'an earlier time is derived again');
    assert.equal(derivations, 4);
    assert.equal(names([...kept], new Date(3)), 'open,until 20');
    assert.equal(derivations, 5, 'another copy is derived on its own');
  });
});
