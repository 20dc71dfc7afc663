import { allocate } from '../../lib/money.ts';

// What a return gives back (docs/orders.md), in integer cents and whole points. A line's share of
// the order-level reductions (the coupon, then the points' cash) is allocated exactly over the
// lines with the largest-remainder method, and each line's remaining money over its units the same
// way: returning every unit of every line, in any number of returns, gives back exactly what was
// paid for the goods, to the cent, and never more.

export interface RefundableLine {
  id: number;
  /** Gross price × quantity, as charged before order-level reductions. */
  lineTotal: number;
  qty: number;
}

export interface RefundableOrder {
  lines: readonly RefundableLine[];
  couponDiscount: number;
  /** Cash value of the points spent on the order. */
  pointsCash: number;
  pointsSpent: number;
}

/** What each line was worth after the order's reductions. */
export interface LineShare {
  id: number;
  qty: number;
  /** Money paid for the line: its gross less its share of the coupon and of the points' cash. */
  paid: number;
  /** The points that paid for part of the line. */
  points: number;
}

export interface ReturnedUnits {
  lineId: number;
  qty: number;
  /** Units of this line returned by earlier returns. */
  alreadyReturned: number;
}

export interface Refund {
  amountCents: number;
  points: number;
  lines: { lineId: number; qty: number; amountCents: number; points: number }[];
}

/**
 * Each line's share of the order: the coupon is spread over the lines' gross, then the points' cash
 * over what is left (capped at it: points that paid for shipping are not a line's), then the points
 * in the same proportion as their cash.
 */
export function lineShares(order: RefundableOrder): LineShare[] {
  const gross = order.lines.map((l) => l.lineTotal);
  if (gross.every((g) => g === 0)) return order.lines.map(({ id, qty }) => ({ id, qty, paid: 0, points: 0 }));
  const coupon = allocate(Math.min(order.couponDiscount, sum(gross)), gross);
  const afterCoupon = gross.map((g, i) => g - coupon[i]);
  const goodsCash = Math.min(order.pointsCash, sum(afterCoupon));
  const pointsCash = sum(afterCoupon) === 0 ? afterCoupon.map(() => 0) : allocate(goodsCash, afterCoupon);
  const goodsPoints =
    order.pointsCash === 0 ? 0 : Math.floor((order.pointsSpent * goodsCash) / order.pointsCash);
  const points = goodsCash === 0 ? pointsCash.map(() => 0) : allocate(goodsPoints, pointsCash);
  return order.lines.map(({ id, qty }, i) => ({
    id,
    qty,
    paid: afterCoupon[i] - pointsCash[i],
    points: points[i],
  }));
}

/** The part of `total` that units [from, from + count) of `units` carry, the units splitting it exactly. */
function unitsPart(total: number, units: number, from: number, count: number): number {
  const perUnit = allocate(
    total,
    Array.from({ length: units }, () => 1),
  );
  return sum(perUnit.slice(from, from + count));
}

/**
 * The money and points a return gives back. Refuses (RangeError) a line the order does not hold or
 * more units than are left to return: the caller checks the request first and answers 422.
 */
export function refundFor(order: RefundableOrder, returned: readonly ReturnedUnits[]): Refund {
  const shares = new Map(lineShares(order).map((s) => [s.id, s]));
  const lines = returned.map(({ lineId, qty, alreadyReturned }) => {
    const share = shares.get(lineId);
    if (!share) throw new RangeError(`line ${lineId} is not a line of this order`);
    if (!Number.isSafeInteger(qty) || qty < 1 || alreadyReturned < 0 || alreadyReturned + qty > share.qty) {
      throw new RangeError(`line ${lineId}: ${qty} more units cannot be returned`);
    }
    return {
      lineId,
      qty,
      amountCents: unitsPart(share.paid, share.qty, alreadyReturned, qty),
      points: unitsPart(share.points, share.qty, alreadyReturned, qty),
    };
  });
  return {
    amountCents: sum(lines.map((l) => l.amountCents)),
    points: sum(lines.map((l) => l.points)),
    lines,
  };
}

function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}
