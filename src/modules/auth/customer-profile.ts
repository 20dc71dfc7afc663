import { AppError } from '../../http/errors.ts';
import { findCustomerById } from './auth.repo.ts';
import type { Db } from '../../db/client.ts';
import type { Config } from '../../config.ts';
import { servedLocales } from '../../resources/index.ts';
import { readSettings } from '../settings/settings.service.ts';

/** The signed-in customer's own profile; a disabled or deleted account is 401. */
export async function customerProfile(db: Db, customerId: number) {
  const customer = await findCustomerById(db, customerId);
  if (!customer?.active) throw new AppError('UNAUTHENTICATED', 'the account is no longer active');
  const { id, email, firstName, lastName, phone, newsletter, loyaltyPoints, locale } = customer;
  return { id, email, firstName, lastName, phone, newsletter, loyaltyPoints, locale };
}

/** A customer's chosen locale, refused (400 naming it) unless the shop serves it (docs/translations.md). */
export async function enabledLocale(db: Db, config: Config, locale: string | undefined) {
  if (locale === undefined) return undefined;
  const { enabled } = servedLocales(await readSettings(db, config));
  if (enabled.includes(locale)) return locale;
  throw new AppError('VALIDATION_FAILED', `locale ${locale} is not an enabled locale`, [
    { field: 'locale', message: `is not one of ${enabled.join(', ')}` },
  ]);
}
