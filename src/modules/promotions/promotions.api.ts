import type { ErrorCatalog } from '../../http/errors.ts';

// The error codes of promotions (their routes are under the checkout tag).

export const promotionErrors = {
  COUPON_INVALID: { status: 422, meaning: 'The coupon is unknown, expired, used up or not met.' },
  GIFT_INVALID: { status: 422, meaning: 'A selected gift cannot be given with this cart.' },
  PROMOTION_USED_UP: { status: 422, meaning: 'A promotion the quote applied reached its usage limit; quote again.' },
} as const satisfies ErrorCatalog;

type PromotionErrors = typeof promotionErrors;
declare module '../../http/errors.ts' {
  interface FeatureErrorCodes extends PromotionErrors {}
}
