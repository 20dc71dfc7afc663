import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { Caller } from '../../http/access.ts';
import { AppError } from '../../http/errors.ts';
import { cartLinesWithProducts, findCart, lockCart } from '../cart/cart.repo.ts';
import { type CartOwner, cartOwnerOf } from '../cart/cart-token.ts';
import type { CartRow } from '../cart/cart.tables.ts';
import type { EffectiveSettings } from '../settings/registry.ts';
import { readSettings, settingCents } from '../settings/settings.service.ts';
import type { TotalsBodyType } from './checkout.schemas.ts';
import {
  type CouponRow,
  type CustomerStanding,
  countRedemptions,
  findCouponByCode,
  findCustomerStanding,
  findGiftRules,
  findProducts,
  findTransport,
  type ProductRef,
  type TransportRow,
} from './checkout.repo.ts';
import { couponProblem } from './coupons.ts';
import {
  computeTotals,
  type LoyaltyInput,
  type SelectedGift,
  type TotalsCoupon,
  type TotalsResult,
  type TotalsTransport,
} from './totals.ts';

export interface QuoteDeps {
  db: Db;
  config: Config;
}

/** A cart line as quoted: the live product's price, name and VAT rate. */
export interface QuotedLine {
  productId: number;
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
  cart: CartRow | undefined;
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
}

export interface QuoteOptions {
  /** Inside place-order's transaction: lock the cart (and, when redeeming, the customer) first. */
  forUpdate?: boolean;
  /** A guest's e-mail, so the per-customer coupon limit can count the guest's earlier orders. */
  guestEmail?: string;
}

function toLine(p: ProductRef, qty: number): QuotedLine {
  return {
    productId: p.id,
    sku: p.sku,
    name: p.name,
    unitPrice: p.price,
    qty,
    vatRate: p.vatRate,
    weightKg: p.weightKg,
  };
}

async function transportOf(db: Db, id: number | undefined): Promise<TransportRow | null> {
  if (id === undefined) return null;
  const transport = await findTransport(db, id);
  if (!transport?.active)
    throw new AppError('TRANSPORT_INVALID', `transport ${id} does not exist or is not offered`);
  return transport;
}

async function couponOf(
  db: Db,
  code: string | null | undefined,
  now: Date,
  by: { customerId: number } | { email: string } | null,
): Promise<{ row: CouponRow | null; input: TotalsCoupon | null }> {
  if (!code) return { row: null, input: null };
  const row = await findCouponByCode(db, code);
  const uses = row && row.perCustomerLimit !== null && by ? await countRedemptions(db, row.id, by) : null;
  const problem = couponProblem(row, now, uses);
  if (!row || problem)
    return {
      row: null,
      input: { code, type: 'fixed', value: 0, minSubtotal: 0, valid: false, error: problem ?? undefined },
    };
  // Percent coupons are stored in hundredths of a percent (1250 = 12.5 %).
  const value = row.type === 'percent' ? row.value / 100 : row.value;
  return { row, input: { code: row.code, type: row.type, value, minSubtotal: row.minSubtotal, valid: true } };
}

interface GiftSelection {
  selected: SelectedGift[];
  products: Map<number, ProductRef>;
}

async function giftsOf(db: Db, chosen: TotalsBodyType['selectedGifts']): Promise<GiftSelection> {
  if (!chosen?.length) return { selected: [], products: new Map() };
  const rules = new Map(
    (
      await findGiftRules(
        db,
        chosen.map((g) => g.giftId),
      )
    ).map((r) => [r.id, r]),
  );
  const ids = new Set([
    ...chosen.map((g) => g.productId),
    ...[...rules.values()].flatMap((r) => r.productIds),
  ]);
  const products = new Map((await findProducts(db, [...ids])).map((p) => [p.id, p]));
  const selected = chosen.map((g): SelectedGift => {
    const rule = rules.get(g.giftId);
    const product = products.get(g.productId);
    // A gift product that is inactive or gone is not eligible, whatever the rule lists.
    const eligible = rule?.productIds.filter((id) => products.get(id)?.active === true) ?? [];
    return {
      ...g,
      unitPrice: product?.price ?? 0,
      weightKg: product?.weightKg ?? 0,
      rule: rule
        ? { active: rule.active, minSubtotal: rule.minSubtotal, productIds: eligible, maxQty: rule.maxQty }
        : null,
    };
  });
  return { selected, products };
}

function transportInput(t: TransportRow | null): TotalsTransport | null {
  if (t === null) return null;
  const { price, freeShippingThreshold, includedWeightKg, overweightPricePerKg, codFee } = t;
  return { price, freeShippingThreshold, includedWeightKg, overweightPricePerKg, codFee };
}

function loyaltyInput(settings: EffectiveSettings, customer: CustomerStanding | undefined): LoyaltyInput {
  return {
    enabled: settings.feature_loyalty,
    isCustomer: customer !== undefined,
    balance: customer?.loyaltyPoints ?? 0,
    spendPoints: settings.loyalty_spend_points,
    rewardCashPerUnit: settingCents(settings, 'loyalty_reward_cash_per_unit'),
  };
}

interface CartPart {
  cart: CartRow | undefined;
  lines: QuotedLine[];
  unavailable: number[];
}

async function cartPart(db: Db, owner: CartOwner, forUpdate: boolean): Promise<CartPart> {
  const cart = forUpdate ? await lockCart(db, owner) : await findCart(db, owner);
  const rows = cart ? await cartLinesWithProducts(db, cart.id) : [];
  return {
    cart,
    lines: rows.filter((r) => r.active).map((r) => toLine({ ...r, id: r.productId }, r.qty)),
    unavailable: rows.filter((r) => !r.active).map((r) => r.productId),
  };
}

/**
 * The checkout quote (CONTRACT §7) of the caller's cart: loads lines, products, transport, coupon, gift
 * rules, settings and the points balance, and prices them with computeTotals. Used by the totals endpoint
 * and, inside its transaction with `forUpdate`, by place-order, so the quote is what gets charged.
 * Locks, when taken, follow the service-wide order: cart, then customer (products come later).
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
  const part = await cartPart(db, owner, options.forUpdate === true);
  const customerId = owner.kind === 'customer' ? owner.customerId : null;
  const lockCustomer = options.forUpdate === true && body.redeemPoints === true;
  const customer = customerId === null ? undefined : await findCustomerStanding(db, customerId, lockCustomer);
  const settings = await readSettings(db, deps.config);
  const transport = await transportOf(db, body.transportId);
  const who =
    customerId !== null ? { customerId } : options.guestEmail ? { email: options.guestEmail } : null;
  const coupon = await couponOf(db, part.cart?.couponCode, now, who);
  const gifts = await giftsOf(db, body.selectedGifts);
  const giftPackaging = body.giftPackaging === true && settings.feature_gift_packaging;
  const totals = computeTotals({
    lines: part.lines,
    coupon: coupon.input,
    selectedGifts: gifts.selected,
    transport: transportInput(transport),
    payWay: body.payWay,
    giftPackaging,
    giftPackagingPrice: settingCents(settings, 'gift_packaging_price'),
    loyalty: loyaltyInput(settings, customer),
    redeemPoints: body.redeemPoints,
  });
  const acceptedGifts = totals.acceptedGifts.map((g) => ({
    ...toLine(gifts.products.get(g.productId)!, g.qty),
    giftId: g.giftId,
  }));
  const appliedCoupon = totals.appliedCoupon ? coupon.row : null;
  return {
    ...part,
    totals,
    gifts: acceptedGifts,
    coupon: appliedCoupon,
    transport,
    customer,
    settings,
    giftPackaging,
  };
}
