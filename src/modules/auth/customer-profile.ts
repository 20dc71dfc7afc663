import { AppError } from '../../http/errors.ts';
import { findCustomerById } from './auth.repo.ts';
import type { Db } from '../../db/client.ts';

/** The signed-in customer's own profile; a disabled or deleted account is 401. */
export async function customerProfile(db: Db, customerId: number) {
  const customer = await findCustomerById(db, customerId);
  if (!customer?.active) throw new AppError('UNAUTHENTICATED', 'the account is no longer active');
  const { id, email, firstName, lastName, phone, newsletter, loyaltyPoints } = customer;
  return { id, email, firstName, lastName, phone, newsletter, loyaltyPoints };
}
