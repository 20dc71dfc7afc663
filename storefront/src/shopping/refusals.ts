// The API's refusals a shopper can act on, in the shopper's words. A form's page catches the
// ShopApiError of its call and shows this message beside the form (status 4xx), never a stack.
import { ShopApiError } from '@shop/client';
import type { PageContext } from '../types.ts';

export interface Refusal {
  status: number;
  code: string;
  /** What went wrong and what to do, in the page's locale. */
  message: string;
  /** The lines that were short of stock (OUT_OF_STOCK), by variant. */
  shortLines?: { variantId: number; availableQty: number }[];
}

/** The refusal of an API error, or the error again when it is not one the shopper can act on. */
export function refusalOf(ctx: PageContext, err: unknown): Refusal {
  if (!(err instanceof ShopApiError)) throw err;
  const { t } = ctx;
  const base = { status: err.status >= 500 ? 502 : err.status, code: err.code };
  switch (err.code) {
    case 'OUT_OF_STOCK':
      return { ...base, message: t.errOutOfStock, shortLines: shortLines(err.details) };
    case 'TOTAL_CHANGED':
      // The checkout page quotes again and names the new total (errTotalChanged).
      return { ...base, message: t.errGeneric };
    case 'COUPON_INVALID':
      return { ...base, message: t.errCoupon };
    case 'LIMIT_REACHED':
      return { ...base, message: `${t.errLimit} ${err.message}` };
    case 'PRODUCT_UNAVAILABLE':
      return { ...base, message: t.errUnavailable };
    case 'VARIANT_REQUIRED':
      return { ...base, message: t.errVariant };
    case 'RATE_LIMITED':
      return { ...base, message: t.errRateLimited };
    case 'CART_EMPTY':
      return { ...base, message: t.errCartEmpty };
    case 'TRANSPORT_INVALID':
      return { ...base, message: t.errTransport };
    case 'SHIPPING_UNAVAILABLE':
      return { ...base, message: t.errShippingUnavailable };
    case 'PAYWAY_INVALID':
      return { ...base, message: t.errPayWay };
    case 'GIFT_INVALID':
      return { ...base, message: t.errGift };
    case 'EMAIL_NOT_VERIFIED':
      return { ...base, message: t.errEmailNotVerified };
    case 'VALIDATION_FAILED':
      return { ...base, message: t.errForm };
    case 'UNAUTHENTICATED':
      return { ...base, message: t.errGuestCheckout };
    default:
      if (err.status >= 500) throw err;
      return { ...base, message: t.errGeneric };
  }
}

function shortLines(details: unknown): Refusal['shortLines'] {
  if (!Array.isArray(details)) return [];
  return details.flatMap((detail) =>
    typeof detail?.variantId === 'number'
      ? [{ variantId: detail.variantId, availableQty: Number(detail.availableQty ?? 0) }]
      : [],
  );
}
