import { cacheScenarios } from './cache.ts';
import { catalogScenarios } from './catalog.ts';
import { checkoutScenarios } from './checkout.ts';
import { mediaScenarios } from './media.ts';
import { paymentScenarios } from './payments.ts';
import { platformScenarios } from './platform.ts';
import { reportScenarios } from './reports.ts';
import { shippingScenarios } from './shipping.ts';
import type { Scenario } from './types.ts';

/** Every benchmark scenario; modules add theirs here. */
export const scenarios: Scenario[] = [
  ...platformScenarios,
  ...catalogScenarios,
  ...cacheScenarios,
  ...checkoutScenarios,
  ...shippingScenarios,
  ...paymentScenarios,
  ...reportScenarios,
  ...mediaScenarios,
];
