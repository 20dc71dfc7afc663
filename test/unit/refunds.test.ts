import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  movePayment,
  type PaymentMove,
  type PaymentState,
  refundable,
  unpaid,
} from '../../src/modules/orders/payment-states.ts';
import { lineShares, type RefundableOrder, refundFor } from '../../src/modules/fulfilment/refunds.ts';

// Replay a failure with FC_SEED=<seed>.
const seed = Number(process.env.FC_SEED ?? Date.now());
const runs = { numRuns: 1000, seed };

describe(`payment states (FC_SEED=${seed})`, () => {
  test('when an order is paid, then it can be refunded in parts down to zero and no further', () => {
    let state = unpaid(10_000);
    assert.equal(movePayment(state, { kind: 'refund', amountCents: 1 }).ok, false, 'nothing paid yet');
    const paid = movePayment(state, { kind: 'paid' });
    assert.ok(paid.ok);
    state = paid.state;
    assert.deepEqual(state, { status: 'paid', dueCents: 10_000, paidCents: 10_000, refundedCents: 0 });
    assert.equal(movePayment(state, { kind: 'paid' }).ok, false, 'paid once');
    const part = movePayment(state, { kind: 'refund', amountCents: 2_501 });
    assert.ok(part.ok && part.state.status === 'partially_refunded');
    const rest = movePayment(part.state, { kind: 'refund', amountCents: 7_499 });
    assert.ok(rest.ok);
    assert.deepEqual(rest.state, {
      status: 'refunded',
      dueCents: 10_000,
      paidCents: 10_000,
      refundedCents: 10_000,
    });
    assert.equal(movePayment(rest.state, { kind: 'refund', amountCents: 1 }).ok, false);
    for (const amountCents of [0, -5, 1.5, Number.NaN]) {
      assert.equal(movePayment(part.state, { kind: 'refund', amountCents }).ok, false, String(amountCents));
    }
  });

  test('when any sequence of moves is applied, then refunds never exceed what was paid and the status says where it stands', () => {
    const move: fc.Arbitrary<PaymentMove> = fc.oneof(
      fc.constant<PaymentMove>({ kind: 'paid' }),
      fc
        .integer({ min: -10, max: 20_000 })
        .map((amountCents): PaymentMove => ({ kind: 'refund', amountCents })),
    );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 20_000 }), fc.array(move, { maxLength: 30 }), (due, moves) => {
        let state: PaymentState = unpaid(due);
        for (const m of moves) {
          const outcome = movePayment(state, m);
          if (outcome.ok) state = outcome.state;
          assert.ok(state.refundedCents <= state.paidCents && state.paidCents <= state.dueCents);
          assert.equal(refundable(state), state.paidCents - state.refundedCents);
          if (state.status === 'refunded') assert.equal(state.refundedCents, state.paidCents);
          if (state.status === 'partially_refunded')
            assert.ok(state.refundedCents > 0 && refundable(state) > 0);
          if (state.status === 'pending') assert.equal(state.paidCents, 0);
        }
      }),
      runs,
    );
  });
});

describe(`refunds of returned lines (FC_SEED=${seed})`, () => {
  test('when a coupon and points paid part of an order, then each line refunds its gross less its shares, to the cent', () => {
    // 3 × 10.00 and 1 × 20.01, coupon 5.00, 400 points worth 4.00.
    const order: RefundableOrder = {
      lines: [
        { id: 1, lineTotal: 3000, qty: 3 },
        { id: 2, lineTotal: 2001, qty: 1 },
      ],
      couponDiscount: 500,
      pointsCash: 400,
      pointsSpent: 400,
    };
    // Coupon: 500 over 3000/2001 → 300 and 200 (largest remainder), then 400 cash over 2700/1801 → 240 and 160.
    assert.deepEqual(lineShares(order), [
      { id: 1, qty: 3, paid: 2460, points: 240 },
      { id: 2, qty: 1, paid: 1641, points: 160 },
    ]);
    const first = refundFor(order, [{ lineId: 1, qty: 1, alreadyReturned: 0 }]);
    assert.deepEqual([first.amountCents, first.points], [820, 80]);
    const rest = refundFor(order, [
      { lineId: 1, qty: 2, alreadyReturned: 1 },
      { lineId: 2, qty: 1, alreadyReturned: 0 },
    ]);
    assert.equal(first.amountCents + rest.amountCents, 2460 + 1641);
    assert.throws(() => refundFor(order, [{ lineId: 1, qty: 1, alreadyReturned: 3 }]), RangeError);
    assert.throws(() => refundFor(order, [{ lineId: 9, qty: 1, alreadyReturned: 0 }]), RangeError);
  });

  const orderArb = fc
    .record({
      lines: fc.array(
        fc.record({ unit: fc.integer({ min: 0, max: 50_000 }), qty: fc.integer({ min: 1, max: 12 }) }),
        { minLength: 1, maxLength: 6 },
      ),
      couponShare: fc.double({ min: 0, max: 1, noNaN: true }),
      pointsShare: fc.double({ min: 0, max: 1.2, noNaN: true }),
      shipping: fc.integer({ min: 0, max: 2_000 }),
      pointsPerCent: fc.integer({ min: 1, max: 3 }),
    })
    .map(({ lines, couponShare, pointsShare, shipping, pointsPerCent }) => {
      const goods = lines.reduce((a, l) => a + l.unit * l.qty, 0);
      const couponDiscount = Math.floor(goods * couponShare);
      // Points may also pay for shipping, never for more than the order.
      const pointsCash = Math.min(
        Math.floor((goods - couponDiscount) * pointsShare),
        goods - couponDiscount + shipping,
      );
      const order: RefundableOrder = {
        lines: lines.map((l, i) => ({ id: i + 1, lineTotal: l.unit * l.qty, qty: l.qty })),
        couponDiscount,
        pointsCash,
        pointsSpent: pointsCash * pointsPerCent,
      };
      return { order, paid: goods - couponDiscount + shipping - pointsCash };
    });

  /** Returns every unit of every line in random slices; answers the refunds in order. */
  const returnsArb = orderArb.chain(({ order, paid }) =>
    fc
      .tuple(...order.lines.map((l) => fc.array(fc.integer({ min: 1, max: l.qty }), { maxLength: l.qty })))
      .map((slices) => ({ order, paid, slices })),
  );

  test('when every unit is returned in any number of returns, then the refunds add up to what was paid for the goods, never more, and points likewise', () => {
    fc.assert(
      fc.property(returnsArb, ({ order, paid, slices }) => {
        const shares = lineShares(order);
        let total = 0;
        let points = 0;
        order.lines.forEach((line, i) => {
          let returned = 0;
          let lineTotal = 0;
          for (const slice of [...slices[i], line.qty]) {
            const qty = Math.min(slice, line.qty - returned);
            if (qty === 0) continue;
            const refund = refundFor(order, [{ lineId: line.id, qty, alreadyReturned: returned }]);
            returned += qty;
            lineTotal += refund.amountCents;
            points += refund.points;
            assert.ok(refund.amountCents >= 0 && Number.isSafeInteger(refund.amountCents));
          }
          assert.equal(returned, line.qty);
          assert.equal(lineTotal, shares[i].paid, 'a line refunds exactly its share');
          assert.ok(shares[i].paid <= line.lineTotal, 'a share never exceeds the gross');
          total += lineTotal;
        });
        const goods = order.lines.reduce((a, l) => a + l.lineTotal, 0);
        const goodsPaid =
          goods - order.couponDiscount - Math.min(order.pointsCash, goods - order.couponDiscount);
        assert.equal(total, goodsPaid, 'Σ refunds = what was paid for the goods');
        assert.ok(total <= paid, 'Σ refunds ≤ paid');
        assert.ok(points <= order.pointsSpent, 'points returned ≤ points spent');
      }),
      runs,
    );
  });
});
