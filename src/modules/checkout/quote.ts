import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { Caller } from '../../http/access.ts';
import { AppError } from '../../http/errors.ts';
import { MoneyOverflowError } from '../../lib/money.ts';
import { lockCart } from '../cart/cart.repo.ts';
import { type CartOwner, cartOwnerOf } from '../cart/cart-token.ts';
import type { EffectiveSettings } from '../settings/registry.ts';
import { mergeSettings, settingCents } from '../settings/settings.service.ts';
import type { TotalsBodyType } from '../pricing/totals.schemas.ts';
import type { VariantRef } from '../catalog/variant.repo.ts';
import type { CartLineRow } from '../cart/cart.repo.ts';
import type { CouponRow } from '../promotions/promotions.repo.ts';
import { namedIn } from '../promotions/promotion.repo.ts';
import type { LocaleRequest } from '../../http/locale.ts';
import { preferredLocale } from '../../resources/index.ts';
import { type CustomerStanding, findCustomerStanding, type TransportRow } from './checkout.repo.ts';
import { type Buyer, couponOf, giftsOf, loyaltyInput } from './quote-inputs.ts';
import {
  type CartSnapshot,
  cartSnapshot,
  type PromotableLine,
  quoteRead,
  readTransportAndSettings,
} from './quote.repo.ts';
import { computeTotals, type TotalsInput, type TotalsResult } from '../pricing/totals.ts';
import { withDestinationRates } from '../pricing/destination-vat.ts';
import { type DestinationReads, type PricedDestination, priceDestination } from './quote-destination.ts';

export interface QuoteDeps {
  /** Where the quote reads: the pool, or place-order's transaction. */
  db: Db;
  config: Config;
  /** Inside a transaction: the pool, whose copies kept between requests the quote may use. */
  pool?: Db;
}

/** A cart line as quoted: the live variant's price, sku and options, its product's name and VAT rate. */
export interface QuotedLine {
  productId: number;
  variantId: number;
  options: Record<string, string>;
  sku: string;
  name: string;
  unitPrice: number;
  qty: number;
  vatRate: number;
  weightKg: number;
}

export interface QuotedGift extends QuotedLine {
  giftId: number;
}

/** Everything a quote was computed from, so place-order can write exactly what was quoted. */
export interface Quote {
  totals: TotalsResult;
  cart: { id: number; couponCode: string | null } | undefined;
  lines: QuotedLine[];
  /** Products in the cart that are inactive or gone: left out of the quote. */
  unavailable: number[];
  gifts: QuotedGift[];
  /** The coupon applied to the quote (null when none or left out). */
  coupon: CouponRow | null;
  transport: TransportRow | null;
  customer: CustomerStanding | undefined;
  settings: EffectiveSettings;
  giftPackaging: boolean;
  /** The address priced: zone rate, destination VAT, VAT id and reverse charge. */
  destination: PricedDestination;
  /** The running cart promotions' usage limits, for place-order's count. */
  promotionLimits: { id: number; usageLimit: number | null }[];
}

export interface QuoteOptions {
  /**
   * Inside place-order's transaction: the transport and settings read before it (quoteReference);
   * the cart (and, when redeeming, the customer) is then locked first.
   */
  reference?: QuoteReference;
  /** A guest's e-mail, so the per-customer coupon limit can count the guest's earlier orders. */
  guestEmail?: string;
  /** The locale the request asks for: applied promotions are named in it. */
  locale?: LocaleRequest;
}

function toLine(v: CartLineRow | VariantRef, qty: number): QuotedLine {
  const { productId, variantId, options, sku, name, price: unitPrice, vatRate, weightKg } = v;
  return { productId, variantId, options, sku, name, unitPrice, qty, vatRate, weightKg };
}

/** What cart promotions' conditions read of a line's product. */
function promotionFacts(r: PromotableLine): { brand: string | null; categoryPath: number[] } {
  return { brand: r.brand, categoryPath: r.categoryPath };
}

/** The transport the body named, or null without one; unknown or inactive is 422. */
function activeTransport(id: number | undefined, transport: TransportRow | undefined): TransportRow | null {
  if (id === undefined) return null;
  if (!transport?.active)
    throw new AppError('TRANSPORT_INVALID', `transport ${id} does not exist or is not offered`);
  return transport;
}

const EMPTY_CART: CartSnapshot = { cart: undefined, coupon: undefined, lines: [], cartPromotions: [] };

/** The reads of a quote that take no lock: read on the pool, before place-order's transaction. */
export interface QuoteReference {
  transport: TransportRow | null;
  settings: EffectiveSettings;
  destination: DestinationReads;
}

/**
 * Transport and settings for a quote (prepared reads on the pool). Place-order reads them before its
 * transaction: neither is locked or guarded, so reading them a moment earlier changes nothing (an
 * operator's change is as much "just before" as "just after"), and it keeps them off the transaction.
 */
export async function quoteReference(deps: QuoteDeps, body: TotalsBodyType): Promise<QuoteReference> {
  const read = await readTransportAndSettings(deps.db, body.transportId, body.countryAlpha2);
  return {
    transport: activeTransport(body.transportId, read.transport),
    settings: mergeSettings(deps.config, read.settings),
    destination: read.destination,
  };
}

interface Loaded extends QuoteReference {
  snapshot: CartSnapshot;
  customer: CustomerStanding | undefined;
}

/**
 * Reads what the quote needs. In place-order's transaction (`reference` given) the locks come first
 * and in the service-wide order: cart, then customer (products and coupon are locked later by their
 * guarded updates); the lock is a statement of its own, so the lines read after it are current. For
 * the totals endpoint the independent reads run side by side on the pool.
 */
async function load(
  deps: QuoteDeps,
  owner: CartOwner,
  body: TotalsBodyType,
  now: Date,
  reference?: QuoteReference,
): Promise<Loaded> {
  const { db } = deps;
  const customerId = owner.kind === 'customer' ? owner.customerId : null;
  if (reference) {
    await lockCart(db, owner);
    const customer =
      customerId === null
        ? undefined
        : await findCustomerStanding(db, customerId, body.redeemPoints === true);
    return { ...reference, snapshot: await cartSnapshot(db, deps.pool ?? db, owner, now), customer };
  }
  const read = await quoteRead(db, owner, body.transportId ?? null, body.countryAlpha2 ?? null, now);
  if (!read) {
    // No cart row (a guest without a cart, a deleted customer): an empty quote still shows loyalty.
    return { snapshot: EMPTY_CART, customer: undefined, ...(await quoteReference(deps, body)) };
  }
  return {
    snapshot: read.snapshot,
    customer: read.customer,
    transport: activeTransport(body.transportId, read.transport),
    settings: mergeSettings(deps.config, read.settings),
    destination: read.destination,
  };
}

/** computeTotals, with a cart too large to count in exact cents refused as 422 instead of failing as 500. */
function priceOrRefuse(input: TotalsInput): TotalsResult {
  try {
    return computeTotals(input);
  } catch (error) {
    if (!(error instanceof MoneyOverflowError)) throw error;
    throw new AppError('UNPROCESSABLE', 'the cart is too large to price exactly', [
      { field: 'cart', message: 'lower the quantities or split the purchase into several orders' },
    ]);
  }
}

/**
 * The checkout quote of the caller's cart: loads lines, products, transport, coupon, gift
 * rules, settings and the points balance, and prices them with computeTotals. Used by the totals endpoint
 * and, inside its transaction with `forUpdate`, by place-order, so the quote is what gets charged.
 */
export async function quoteCart(
  deps: QuoteDeps,
  caller: Caller,
  cartToken: string | undefined,
  body: TotalsBodyType,
  now: Date,
  options: QuoteOptions = {},
): Promise<Quote> {
  const { db } = deps;
  const owner = cartOwnerOf(caller, cartToken);
  const loaded = await load(deps, owner, body, now, options.reference);
  const { snapshot, customer, transport, settings } = loaded;
  // The address: which zone rate prices the shipping, whose VAT is inside the prices (quote-destination.ts).
  const destination = await priceDestination(deps.config, settings, body, transport, loaded.destination);
  const rows = snapshot.lines;
  const active = withDestinationRates(
    rows.filter((r) => r.active),
    destination.countryRates,
  );
  const lines = active.map((r) => toLine(r, r.qty));
  const promotable = active.map((r, i) => ({ ...lines[i], ...promotionFacts(r) }));
  const buyer: Buyer =
    owner.kind === 'customer'
      ? { customerId: owner.customerId }
      : options.guestEmail
        ? { email: options.guestEmail }
        : null;
  const coupon = await couponOf(db, snapshot.cart?.couponCode ?? null, snapshot.coupon, now, buyer);
  const gifts = await giftsOf(db, body.selectedGifts);
  const giftPackaging = body.giftPackaging === true && settings.feature_gift_packaging;
  const totals = priceOrRefuse({
    lines: promotable,
    cartPromotions: namedIn(snapshot.cartPromotions, preferredLocale(options.locale, settings)),
    isCustomer: owner.kind === 'customer',
    coupon,
    selectedGifts: gifts.selected,
    transport: destination.transport,
    shippingVatRate: destination.shippingVatRate,
    reverseCharge: destination.reverseCharge,
    payWay: body.payWay,
    giftPackaging,
    giftPackagingPrice: settingCents(settings, 'gift_packaging_price'),
    loyalty: loyaltyInput(settings, customer),
    redeemPoints: body.redeemPoints,
  });
  return {
    totals,
    cart: snapshot.cart,
    lines,
    unavailable: rows.filter((r) => !r.active).map((r) => r.productId),
    gifts: totals.acceptedGifts.map((g) => ({
      // biome-ignore lint/style/noNonNullAssertion: the gifts' variants were read for exactly these ids
      ...toLine(gifts.variants.get(g.variantId)!, g.qty),
      giftId: g.giftId,
    })),
    coupon: totals.appliedCoupon ? (snapshot.coupon ?? null) : null,
    transport,
    customer,
    settings,
    giftPackaging,
    destination,
    promotionLimits: snapshot.cartPromotions.map(({ id, usageLimit }) => ({ id, usageLimit })),
  };
}
