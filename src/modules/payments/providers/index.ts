import { type Config, cardProviderOf } from '../../../config.ts';
import type { Db } from '../../../db/client.ts';
import type { PaymentProvider } from './provider.ts';
import { stripeProvider } from './stripe.ts';
import { testProvider } from './test.ts';

/** Secrets the providers verify events with, made once where events arrive. */
export interface PaymentKeys {
  testEventSecret: string;
}

/** The provider named in a webhook URL or on an order, when this shop runs it; else undefined. */
export function providerNamed(
  name: string,
  config: Config,
  db: Db,
  keys?: PaymentKeys,
): PaymentProvider | undefined {
  if (name !== cardProviderOf(config)) return undefined;
  if (name === 'test') return testProvider(db, keys?.testEventSecret);
  if (name === 'stripe') {
    const { secretKey, webhookSecret, apiBase } = config.payments.stripe;
    if (!secretKey || !webhookSecret) return undefined;
    return stripeProvider({ secretKey, webhookSecret, apiBase });
  }
  return undefined;
}

/** The provider that serves payWay "card" now. */
export function cardProvider(config: Config, db: Db): PaymentProvider | undefined {
  return providerNamed(cardProviderOf(config), config, db);
}
