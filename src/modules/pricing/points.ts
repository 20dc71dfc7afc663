import { assertCents } from '../../lib/money.ts';

/** Loyalty settings and the caller's standing, as the service reads them (money in cents). */
export interface LoyaltyInput {
  /** Setting `feature_loyalty`. */
  enabled: boolean;
  /** false for guests: they never see a balance nor redeem. */
  isCustomer: boolean;
  /** The customer's points balance. */
  balance: number;
  /** Setting `loyalty_spend_points`: points per redemption unit. */
  spendPoints: number;
  /** Setting `loyalty_reward_cash_per_unit` in cents: cash value of one unit. */
  rewardCashPerUnit: number;
}

/** The `loyalty` block of the totals response (money in cents). */
export interface LoyaltySummary {
  pointSystemEnabled: boolean;
  spendPoints: number;
  rewardCashPerUnit: number;
  balance: number;
  redeemablePoints: number;
  redeemableCash: number;
  canRedeem: boolean;
  wouldExceed: boolean;
}

export const NO_LOYALTY: LoyaltyInput = {
  enabled: false,
  isCustomer: false,
  balance: 0,
  spendPoints: 0,
  rewardCashPerUnit: 0,
};

/**
 * The redemption decision (docs/checkout.md): whole units of `spendPoints`, capped so the cash never exceeds
 * what is payable. A non-positive `spendPoints` or `rewardCashPerUnit` makes loyalty unusable (0 units)
 * rather than dividing by zero or spending points for no cash.
 */
export function computeLoyalty(input: LoyaltyInput, payableBeforePoints: number): LoyaltySummary {
  const spendPoints = assertCents(input.spendPoints, 'spendPoints');
  const reward = assertCents(input.rewardCashPerUnit, 'rewardCashPerUnit');
  const base = { pointSystemEnabled: input.enabled, spendPoints, rewardCashPerUnit: reward };
  if (!input.isCustomer) {
    return {
      ...base,
      balance: 0,
      redeemablePoints: 0,
      redeemableCash: 0,
      canRedeem: false,
      wouldExceed: false,
    };
  }
  const balance = assertCents(input.balance, 'balance');
  const none = {
    ...base,
    balance,
    redeemablePoints: 0,
    redeemableCash: 0,
    canRedeem: false,
    wouldExceed: false,
  };
  if (spendPoints <= 0 || reward <= 0 || balance <= 0) return none;
  const fullUnits = Math.floor(balance / spendPoints);
  const units = Math.min(fullUnits, Math.floor(Math.max(0, payableBeforePoints) / reward));
  return {
    ...none,
    redeemablePoints: units * spendPoints,
    redeemableCash: units * reward,
    canRedeem: input.enabled && units >= 1,
    wouldExceed: fullUnits * reward > payableBeforePoints,
  };
}
