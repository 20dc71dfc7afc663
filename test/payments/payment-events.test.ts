import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { idempotencyKeyFor } from '../../src/modules/payments/idempotency.ts';
import {
  type CardPaymentStatus,
  decideEvent,
  moneyMatches,
  nextRefund,
  type OrderPaymentView,
} from '../../src/modules/payments/payment-events.ts';
import type { PaymentEvent } from '../../src/modules/payments/providers/provider.ts';
import { checkEventSignature, signEvent } from '../../src/modules/payments/signature.ts';

const view = (over: Partial<OrderPaymentView> = {}): OrderPaymentView => ({
  orderStatus: 'pending',
  paymentStatus: 'pending',
  cardStatus: 'requires_payment_method',
  totalCents: 4601,
  currency: 'EUR',
  ...over,
});
const event = (over: Partial<PaymentEvent> = {}): PaymentEvent => ({
  id: 'evt_1',
  type: 'payment.succeeded',
  intentId: 'pi_1',
  amountCents: 4601,
  currency: 'eur',
  createdAt: new Date(),
  ...over,
});

describe('payments: what an event means for an order (pure)', () => {
  test('when a success carries exactly the order total and currency, then the order is paid; manual capture authorizes', () => {
    assert.deepEqual(decideEvent(view(), event()), { kind: 'paid' });
    assert.deepEqual(decideEvent(view(), event({ type: 'payment.authorized' })), { kind: 'authorized' });
    assert.deepEqual(decideEvent(view({ paymentStatus: 'authorized', cardStatus: 'authorized' }), event()), {
      kind: 'paid',
    });
  });

  test('when the amount differs by any number of cents or the currency differs, then mismatch, never paid', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000_000 }),
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.constantFrom('EUR', 'USD', 'GBP'),
        (total, amount, currency) => {
          const v = view({ totalCents: total });
          const e = event({ amountCents: amount, currency });
          const decision = decideEvent(v, e);
          if (amount === total && currency === 'EUR') assert.deepEqual(decision, { kind: 'paid' });
          else {
            assert.equal(moneyMatches(v, e), false);
            assert.deepEqual(decision, { kind: 'mismatch' });
          }
        },
      ),
    );
  });

  test('when events of one payment arrive in any order, then a success is never undone and paying happens once', () => {
    const types = fc.constantFrom<PaymentEvent['type']>(
      'payment.succeeded',
      'payment.failed',
      'payment.canceled',
    );
    fc.assert(
      fc.property(fc.array(types, { minLength: 1, maxLength: 8 }), (sequence) => {
        let state = view();
        let paid = 0;
        for (const type of sequence) {
          const d = decideEvent(state, event({ type }));
          if (d.kind === 'paid') {
            paid += 1;
            state = { ...state, paymentStatus: 'paid', cardStatus: 'succeeded' };
          } else if (d.kind === 'record') state = { ...state, cardStatus: d.cardStatus };
        }
        assert.equal(paid, sequence.includes('payment.succeeded') ? 1 : 0);
        if (paid) assert.equal(state.cardStatus, 'succeeded' satisfies CardPaymentStatus);
      }),
    );
  });

  test('when a success arrives for an order already cancelled, then it is given back', () => {
    assert.deepEqual(decideEvent(view({ orderStatus: 'cancelled', cardStatus: 'canceled' }), event()), {
      kind: 'refund_late',
    });
  });

  test('when a failure arrives, then the order stays payable with the payment failed', () => {
    assert.deepEqual(decideEvent(view(), event({ type: 'payment.failed' })), {
      kind: 'record',
      cardStatus: 'failed',
    });
  });
});

describe('payments: idempotency keys and refunds (pure)', () => {
  test('when the same step of the same order is retried, then the key is the same; other steps and orders differ', () => {
    assert.equal(idempotencyKeyFor(12, 'capture'), idempotencyKeyFor(12, 'capture'));
    assert.equal(idempotencyKeyFor(12, { refund: 2 }), 'order-12-refund-2');
    const keys = new Set(
      [1, 2].flatMap((id) =>
        ['intent', 'capture', 'cancel', { refund: 1 }, { refund: 2 }].map((s) =>
          idempotencyKeyFor(id, s as 'intent'),
        ),
      ),
    );
    assert.equal(keys.size, 10);
  });

  test('when refunds follow each other, then each is numbered after the last and sends exactly its cents', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 1_000_000 }), { maxLength: 10 }), (amounts) => {
        const sent: { seq: number; amountCents: number }[] = [];
        for (const amount of amounts) sent.push(nextRefund(sent, amount));
        assert.deepEqual(
          sent.map((r) => r.seq),
          amounts.map((_, i) => i + 1),
        );
        assert.deepEqual(
          sent.map((r) => r.amountCents),
          amounts,
        );
      }),
    );
    assert.throws(() => nextRefund([], 0), RangeError);
    assert.throws(() => nextRefund([], 1.5), RangeError);
  });
});

describe('payments: event signatures (pure)', () => {
  const now = new Date('2025-01-01T12:00:00Z');
  test('when the body, the secret and the time are right, then valid; anything else is not', () => {
    const body = '{"id":"evt_1"}';
    const header = signEvent(body, 'whsec_a', now);
    assert.equal(checkEventSignature(body, header, 'whsec_a', now), 'valid');
    assert.equal(checkEventSignature(`${body} `, header, 'whsec_a', now), 'forged');
    assert.equal(checkEventSignature(body, header, 'whsec_b', now), 'forged');
    assert.equal(checkEventSignature(body, undefined, 'whsec_a', now), 'missing');
    assert.equal(checkEventSignature(body, 't=abc,v1=00', 'whsec_a', now), 'forged');
    assert.equal(checkEventSignature(body, header, 'whsec_a', new Date(now.getTime() + 301_000)), 'stale');
    assert.equal(checkEventSignature(body, header, 'whsec_a', new Date(now.getTime() + 299_000)), 'valid');
  });
});
