import { type Config, cardProviderOf } from '../../config.ts';
import { AppError } from '../../http/errors.ts';
import type { PayWay } from '../pricing/totals.ts';
import type { EffectiveSettings } from '../settings/registry.ts';

// Payment methods as data (docs/payments.md): which payWay codes the shop offers now. The setting
// `payment_methods_enabled` chooses among them; card also needs a card provider configured.

export type PaymentMethodKind = 'offline' | 'card';

export interface PaymentMethod {
  code: PayWay;
  name: string;
  kind: PaymentMethodKind;
  /** The provider that takes the money; null for offline methods, whose money an admin records. */
  provider: string | null;
}

const OFFLINE: Record<'delivery' | 'bank_transfer', string> = {
  delivery: 'Cash on delivery',
  bank_transfer: 'Bank transfer',
};

/** The methods enabled now, in the order the setting lists them. */
export function enabledPaymentMethods(config: Config, settings: EffectiveSettings): PaymentMethod[] {
  const cardProvider = cardProviderOf(config);
  const methods: PaymentMethod[] = [];
  for (const code of settings.payment_methods_enabled) {
    if (code === 'card') {
      if (cardProvider !== 'none') methods.push({ code, name: 'Card', kind: 'card', provider: cardProvider });
    } else {
      methods.push({ code, name: OFFLINE[code], kind: 'offline', provider: null });
    }
  }
  return methods;
}

/** Refuses a payWay the shop does not offer now; no payWay (a quote before choosing) passes. */
export function assertPayWayEnabled(
  config: Config,
  settings: EffectiveSettings,
  payWay: PayWay | undefined,
): void {
  if (payWay === undefined) return;
  if (enabledPaymentMethods(config, settings).some((m) => m.code === payWay)) return;
  throw new AppError('PAYWAY_INVALID', `the payment method "${payWay}" is not offered`, [
    {
      field: 'payWay',
      message: 'is not one of the enabled payment methods (GET /rest/checkout/payment-methods)',
    },
  ]);
}
