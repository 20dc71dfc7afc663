import { AppError } from '../../http/errors.ts';
import { fromCents } from '../../lib/money.ts';
import { settingCents } from '../settings/settings.service.ts';
import type { Quote } from './quote.ts';
import type { PayWay } from '../pricing/totals.ts';

/**
 * The shop's caps on one order (docs/checkout.md, "Order caps"): the units of the cart's lines
 * (setting `order_max_units`) and, paid cash on delivery, the total to collect (`cod_max_total`).
 * An order nobody has paid for yet must not be able to take a shop's whole stock. The totals
 * endpoint refuses as place-order does, so the buyer learns it before ordering; place-order
 * refuses inside its transaction, before it writes anything.
 */
export function assertOrderCaps(quote: Quote, payWay: PayWay | undefined): void {
  const maxUnits = quote.settings.order_max_units;
  const units = quote.lines.reduce((sum, line) => sum + line.qty, 0);
  if (units > maxUnits) {
    throw new AppError('LIMIT_REACHED', `an order holds at most ${maxUnits} units (order_max_units)`, [
      { field: 'qty', message: `the cart holds ${units} units; remove ${units - maxUnits}` },
    ]);
  }
  if (payWay !== 'delivery') return;
  const maxCod = settingCents(quote.settings, 'cod_max_total');
  if (quote.totals.total > maxCod) {
    const limit = fromCents(maxCod).toFixed(2);
    throw new AppError(
      'LIMIT_REACHED',
      `cash on delivery is accepted up to a total of ${limit} (cod_max_total)`,
      [
        {
          field: 'payWay',
          message: `the total is ${fromCents(quote.totals.total).toFixed(2)}: choose another payment method`,
        },
      ],
    );
  }
}
