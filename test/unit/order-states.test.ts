import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  canTransition,
  nextStatuses,
  ORDER_STATUSES,
  type OrderStatus,
  transition,
} from '../../src/modules/orders/order-states.ts';

const LEGAL: [OrderStatus, OrderStatus][] = [
  ['pending', 'confirmed'],
  ['confirmed', 'shipped'],
  ['shipped', 'delivered'],
  ['pending', 'cancelled'],
  ['confirmed', 'cancelled'],
];

describe('order states', () => {
  test('when a move is one of the five legal ones, then it is allowed', () => {
    for (const [from, to] of LEGAL) {
      const outcome = transition(from, to);
      assert.equal(outcome.ok, true, `${from} → ${to}`);
    }
  });

  test('when any other pair is asked, then it is refused with a reason', () => {
    for (const from of ORDER_STATUSES) {
      for (const to of ORDER_STATUSES) {
        if (LEGAL.some(([f, t]) => f === from && t === to)) continue;
        const outcome = transition(from, to);
        assert.equal(outcome.ok, false, `${from} → ${to}`);
        if (!outcome.ok) assert.match(outcome.reason, new RegExp(`from ${from} to ${to}`));
      }
    }
  });

  test('when an order is cancelled, then its reservations are released; other moves keep them', () => {
    for (const [from, to] of LEGAL) {
      const outcome = transition(from, to);
      assert.ok(outcome.ok);
      assert.equal(outcome.effects.releaseReservations, to === 'cancelled');
    }
  });

  test('when an order is delivered or cancelled, then it is final', () => {
    assert.deepEqual(nextStatuses('delivered'), []);
    assert.deepEqual(nextStatuses('cancelled'), []);
  });

  test('when a status stays put, then it is not a move', () => {
    for (const s of ORDER_STATUSES) assert.equal(canTransition(s, s), false);
  });

  test('when random walks follow legal moves, then they never leave a final state and never revisit one', () => {
    const status = fc.constantFrom(...ORDER_STATUSES);
    fc.assert(
      fc.property(fc.array(status, { maxLength: 12 }), (moves) => {
        let current: OrderStatus = 'pending';
        const seen = new Set<OrderStatus>([current]);
        for (const to of moves) {
          const outcome = transition(current, to);
          if (!outcome.ok) continue;
          assert.ok(!seen.has(outcome.to), 'the life cycle has no cycles');
          seen.add(outcome.to);
          current = outcome.to;
        }
        if (current === 'delivered' || current === 'cancelled') {
          for (const to of ORDER_STATUSES) assert.equal(transition(current, to).ok, false);
        }
      }),
    );
  });
});
