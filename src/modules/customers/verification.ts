import { and, eq, isNull } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../http/errors.ts';
import { getSetting } from '../settings/settings.service.ts';
import { customerEmailVerification } from './customer.tables.ts';

/** 403 EMAIL_NOT_VERIFIED for a customer who registered under verification and has not confirmed. */
export async function assertEmailVerified(db: Db, config: Config, customerId: number): Promise<void> {
  const [pending] = await db
    .select({ customerId: customerEmailVerification.customerId })
    .from(customerEmailVerification)
    .where(
      and(eq(customerEmailVerification.customerId, customerId), isNull(customerEmailVerification.verifiedAt)),
    );
  if (pending && (await getSetting(db, config, 'require_email_verification'))) {
    throw new AppError('EMAIL_NOT_VERIFIED', 'confirm your e-mail address before placing an order');
  }
}
