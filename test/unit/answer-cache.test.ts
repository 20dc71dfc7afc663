import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { AnswerCache, type CachedAnswer } from '../../src/resources/answer-cache.ts';

// The answer cache's bound (docs/performance.md, "The shared cache"): bytes held never exceed
// cache.maxMegabytes, and the least recently used answers go first.

const answer = (bytes: number): CachedAnswer => ({
  body: Buffer.alloc(bytes),
  headers: {},
  tables: ['product'],
  until: null,
  stamps: [1],
  route: '/rest/product/product',
  early: true,
});

describe('the answer cache bound', () => {
  test('when answers of any size are kept and read in any order, then the bytes held stay within the bound and match what is held', () => {
    const operation = fc.oneof(
      fc.record({
        kind: fc.constant('set' as const),
        key: fc.integer({ min: 0, max: 20 }),
        bytes: fc.nat(4000),
      }),
      fc.record({ kind: fc.constant('get' as const), key: fc.integer({ min: 0, max: 20 }) }),
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 1000, max: 20_000 }),
        fc.array(operation, { maxLength: 200 }),
        (max, ops) => {
          const cache = new AnswerCache(max);
          const held = new Map<string, number>();
          for (const op of ops) {
            const key = `k${op.key}`;
            if (op.kind === 'set') cache.set(key, answer(op.bytes));
            else cache.get(key);
          }
          assert.ok(cache.heldBytes <= max);
          assert.ok(cache.heldBytes >= 0);
          for (let k = 0; k <= 20; k++) {
            const entry = cache.get(`k${k}`);
            if (entry) held.set(`k${k}`, entry.body.length + `k${k}`.length + 512);
          }
          assert.equal(
            cache.heldBytes,
            [...held.values()].reduce((a, b) => a + b, 0),
          );
        },
      ),
    );
  });

  test('when the bound is passed, then the least recently read answer goes first', () => {
    const cache = new AnswerCache(3 * (1000 + 2 + 512));
    cache.set('k1', answer(1000));
    cache.set('k2', answer(1000));
    cache.set('k3', answer(1000));
    cache.get('k1');
    cache.set('k4', answer(1000));
    assert.equal(cache.get('k2'), undefined, 'k2 was read least recently');
    assert.ok(cache.get('k1'));
    assert.ok(cache.get('k3'));
    assert.ok(cache.get('k4'));
  });

  test('when one answer is larger than the whole bound, then it is not kept and nothing is evicted for it', () => {
    const cache = new AnswerCache(2000);
    cache.set('small', answer(100));
    cache.set('huge', answer(5000));
    assert.equal(cache.get('huge'), undefined);
    assert.ok(cache.get('small'));
  });
});

describe('which answers are kept', () => {
  test('when a key is asked once, then its answer is not worth keeping; asked again, or once kept, it is', () => {
    const cache = new AnswerCache(1024 * 1024);
    assert.equal(cache.worthKeeping('a'), false, 'a one-off URL');
    assert.equal(cache.worthKeeping('a'), true, 'its second ask');
    cache.set('a', answer(10));
    cache.delete('b');
    assert.equal(cache.worthKeeping('a'), true, 'kept, then asked after a write made it stale');
    cache.clear();
    assert.equal(cache.worthKeeping('a'), false, 'emptied: asked once again');
  });

  test('when more keys are asked once than it remembers, then it starts again rather than grow', () => {
    const cache = new AnswerCache(1024 * 1024);
    for (let i = 0; i < 20_000; i++) cache.worthKeeping(`once ${i}`);
    assert.equal(cache.worthKeeping('once 19999'), true, 'remembered up to the bound');
    assert.equal(cache.worthKeeping('one more'), false);
    assert.equal(cache.worthKeeping('once 0'), false, 'forgotten when the memory started again');
  });
});
