// What a quote hands to computeTotals besides the cart's lines: the coupon (valid, or left out
// with the reason), the gifts chosen with their variants, the transport and the loyalty figures.
import type { Db } from '../../db/client.ts';
import { findFirstVariantsOf, findVariants, type VariantRef } from '../catalog/variant.repo.ts';
import type { LoyaltyInput, SelectedGift, TotalsCoupon, TotalsTransport } from '../pricing/totals.ts';
import { couponProblem } from '../promotions/coupons.ts';
import { type CouponRow, countRedemptions, findGiftRules } from '../promotions/promotions.repo.ts';
import type { EffectiveSettings } from '../settings/registry.ts';
import { settingCents } from '../settings/settings.service.ts';
import type { CustomerStanding, TransportRow } from './checkout.repo.ts';
import type { TotalsBodyType } from '../pricing/totals.schemas.ts';

/** Who counts against a coupon's per-customer limit: the customer, a guest's e-mail, or nobody. */
export type Buyer = { customerId: number } | { email: string } | null;

/** The cart's coupon as computeTotals takes it: valid, or left out with the reason. */
export async function couponOf(
  db: Db,
  code: string | null,
  row: CouponRow | undefined,
  now: Date,
  by: Buyer,
): Promise<TotalsCoupon | null> {
  if (!code) return null;
  const uses = row && row.perCustomerLimit !== null && by ? await countRedemptions(db, row.id, by) : null;
  const problem = couponProblem(row, now, uses);
  if (!row || problem) {
    return { code, type: 'fixed', value: 0, minSubtotal: 0, valid: false, error: problem ?? undefined };
  }
  // Percent coupons are stored in hundredths of a percent (1250 = 12.5 %).
  const value = row.type === 'percent' ? row.value / 100 : row.value;
  return { code: row.code, type: row.type, value, minSubtotal: row.minSubtotal, valid: true };
}

interface GiftSelection {
  selected: SelectedGift[];
  variants: Map<number, VariantRef>;
}

/**
 * The variant each selected gift gives: the one chosen (it must be of the gift's product), or the
 * product's only one; a product's eligibility needs an active variant.
 */
export async function giftsOf(db: Db, chosen: TotalsBodyType['selectedGifts']): Promise<GiftSelection> {
  if (!chosen?.length) return { selected: [], variants: new Map() };
  const rules = new Map(
    (
      await findGiftRules(
        db,
        chosen.map((g) => g.giftId),
      )
    ).map((r) => [r.id, r]),
  );
  const productIds = new Set([
    ...chosen.map((g) => g.productId),
    ...[...rules.values()].flatMap((r) => r.productIds),
  ]);
  const [first, picked] = await Promise.all([
    findFirstVariantsOf(db, [...productIds]),
    findVariants(
      db,
      chosen.flatMap((g) => (g.variantId === undefined ? [] : [g.variantId])),
    ),
  ]);
  const firstOf = new Map(first.map((v) => [v.productId, v]));
  const variants = new Map([...first, ...picked].map((v) => [v.variantId, v]));
  const selected = chosen.map((g): SelectedGift => {
    const rule = rules.get(g.giftId);
    const only = firstOf.get(g.productId);
    const variant =
      g.variantId === undefined ? (only?.variantCount === 1 ? only : undefined) : variants.get(g.variantId);
    // Several variants and none chosen: the product stays eligible, the gift needs a variant.
    const undecided = g.variantId === undefined && only !== undefined && only.variantCount > 1;
    const fits = variant !== undefined && variant.productId === g.productId && variant.active;
    // A gift product that is inactive or gone (or a variant not of it) is not eligible, whatever the rule lists.
    const eligible = rule?.productIds.filter((id) => id !== g.productId || fits || undecided) ?? [];
    return {
      giftId: g.giftId,
      productId: g.productId,
      variantId: fits ? variant.variantId : null,
      qty: g.qty,
      unitPrice: fits ? variant.price : 0,
      weightKg: fits ? variant.weightKg : 0,
      rule: rule
        ? { active: rule.active, minSubtotal: rule.minSubtotal, productIds: eligible, maxQty: rule.maxQty }
        : null,
    };
  });
  return { selected, variants };
}

export function transportInput(t: TransportRow | null): TotalsTransport | null {
  if (t === null) return null;
  const { price, freeShippingThreshold, includedWeightKg, overweightPricePerKg, codFee } = t;
  return { price, freeShippingThreshold, includedWeightKg, overweightPricePerKg, codFee };
}

export function loyaltyInput(
  settings: EffectiveSettings,
  customer: CustomerStanding | undefined,
): LoyaltyInput {
  return {
    enabled: settings.feature_loyalty,
    isCustomer: customer !== undefined,
    balance: customer?.loyaltyPoints ?? 0,
    spendPoints: settings.loyalty_spend_points,
    rewardCashPerUnit: settingCents(settings, 'loyalty_reward_cash_per_unit'),
  };
}
