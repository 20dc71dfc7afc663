// Whether a coupon can be used now by this caller: the checks that need the database's numbers,
// decided here as plain data so the cart, the quote and place-order give the same answer.

export interface CouponState {
  active: boolean;
  startsAt: Date | null;
  endsAt: Date | null;
  usageLimit: number | null;
  usedCount: number;
  perCustomerLimit: number | null;
}

export type CouponProblem =
  | 'COUPON_UNKNOWN'
  | 'COUPON_INACTIVE'
  | 'COUPON_NOT_STARTED'
  | 'COUPON_EXPIRED'
  | 'COUPON_USED_UP'
  | 'COUPON_CUSTOMER_LIMIT';

/**
 * Why the coupon cannot be used, or null. `usesByCaller` is how often this customer (or guest e-mail)
 * already redeemed it; null when unknown (a guest before checkout), which skips the per-customer check.
 * The window is inclusive of startsAt and exclusive of endsAt.
 */
export function couponProblem(
  coupon: CouponState | undefined,
  now: Date,
  usesByCaller: number | null,
): CouponProblem | null {
  if (!coupon) return 'COUPON_UNKNOWN';
  if (!coupon.active) return 'COUPON_INACTIVE';
  if (coupon.startsAt && now < coupon.startsAt) return 'COUPON_NOT_STARTED';
  if (coupon.endsAt && now >= coupon.endsAt) return 'COUPON_EXPIRED';
  if (coupon.usageLimit !== null && coupon.usedCount >= coupon.usageLimit) return 'COUPON_USED_UP';
  if (coupon.perCustomerLimit !== null && usesByCaller !== null && usesByCaller >= coupon.perCustomerLimit) {
    return 'COUPON_CUSTOMER_LIMIT';
  }
  return null;
}
