import { randomBytes } from 'node:crypto';
import { hashOpaqueToken } from './tokens.ts';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { AppError } from '../../http/errors.ts';
import { recordAudit } from '../audit/audit.ts';

import {
  awaitEmailVerification,
  markEmailVerified,
  type ProfileValues,
  setCustomerPassword,
  updateCustomerProfile,
} from '../customers/customer.repo.ts';
import { writeMail } from '../mail/mail.service.ts';
import { getSetting } from '../settings/settings.service.ts';
import { type AccountTokenPurpose, customerAccountToken } from './account-tokens.tables.ts';
import { findAdminById, findCustomerByEmail, findCustomerById, updateAdmin } from './auth.repo.ts';
import type { AuthDeps } from './auth-deps.ts';
import { customerProfile, enabledLocale } from './customer-profile.ts';
import { canonicalEmail, normaliseLogin } from './email.ts';
import type { PasswordGuard } from './login-limits.ts';
import { hashPassword, verifyDummyPassword, verifyPassword } from './passwords.ts';

/** How long a password-reset code is valid. */
export const RESET_MINUTES = 30;
/** How long an e-mail verification code is valid. */
const VERIFICATION_DAYS = 7;

/** A fresh code: 256 random bits; only its hash is stored. */
async function issueCode(
  db: Db,
  customerId: number,
  purpose: AccountTokenPurpose,
  validMs: number,
): Promise<string> {
  const code = randomBytes(32).toString('base64url');
  // An older unused code of the same purpose stops working: only the latest e-mail counts.
  await db
    .update(customerAccountToken)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(customerAccountToken.customerId, customerId),
        eq(customerAccountToken.purpose, purpose),
        isNull(customerAccountToken.usedAt),
      ),
    );
  await db.insert(customerAccountToken).values({
    customerId,
    purpose,
    tokenHash: hashOpaqueToken(code),
    expiresAt: new Date(Date.now() + validMs),
  });
  return code;
}

/** Marks a live code used and names its customer; a used, expired or unknown code is 400 TOKEN_INVALID. */
async function useCode(db: Db, code: string, purpose: AccountTokenPurpose): Promise<number> {
  const [row] = await db
    .update(customerAccountToken)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(customerAccountToken.tokenHash, hashOpaqueToken(code)),
        eq(customerAccountToken.purpose, purpose),
        isNull(customerAccountToken.usedAt),
        gt(customerAccountToken.expiresAt, sql`now()`),
      ),
    )
    .returning({ customerId: customerAccountToken.customerId });
  if (!row) throw new AppError('TOKEN_INVALID', 'the code is not valid (used, expired or unknown)');
  return row.customerId;
}

/**
 * Called in the transaction of a registration or of an e-mail change: with
 * `require_email_verification` on, the customer (again) waits for confirmation of the address
 * before ordering, and the verification e-mail is written to it.
 */
export async function startEmailVerification(
  db: Db,
  config: Config,
  customer: { id: number; email: string; firstName: string; locale?: string | null },
): Promise<void> {
  if (!(await getSetting(db, config, 'require_email_verification'))) return;
  await awaitEmailVerification(db, customer.id);
  const token = await issueCode(db, customer.id, 'email_verification', VERIFICATION_DAYS * 86_400_000);
  await writeMail(db, config, customer.email, {
    template: 'verification',
    firstName: customer.firstName,
    token,
  }, customer.locale ?? null);
}

export async function verifyEmail(db: Db, code: string): Promise<void> {
  await db.transaction(async (tx) => {
    const customerId = await useCode(tx, code, 'email_verification');
    await markEmailVerified(tx, customerId);
  });
}

/**
 * Writes the reset e-mail for an existing active account; does nothing otherwise. The caller
 * answers 202 either way, so the answer never tells whether an address is registered.
 */
export async function requestPasswordReset(db: Db, config: Config, email: string): Promise<void> {
  const customer = await findCustomerByEmail(db, normaliseLogin(email));
  if (!customer?.active) return;
  await db.transaction(async (tx) => {
    const token = await issueCode(tx, customer.id, 'password_reset', RESET_MINUTES * 60_000);
    await writeMail(tx, config, customer.email, {
      template: 'password_reset',
      firstName: customer.firstName,
      token,
      minutes: RESET_MINUTES,
    }, customer.locale);
  });
}

/** Sets the new password; the database trigger on password_hash ends every session of the account. */
export async function confirmPasswordReset(db: Db, code: string, password: string): Promise<void> {
  const passwordHash = await hashPassword(password);
  await db.transaction(async (tx) => {
    const customerId = await useCode(tx, code, 'password_reset');
    await setCustomerPassword(tx, customerId, passwordHash);
  });
}

export interface ProfileChanges {
  firstName?: string;
  lastName?: string;
  phone?: string | null;
  newsletter?: boolean;
  locale?: string;
  email?: string;
  currentPassword?: string;
}

/**
 * Changes the own profile; a new e-mail address needs a free address and the current password,
 * checked as a login of the account under `guard`.
 */
export async function updateOwnProfile(
  deps: AuthDeps,
  customerId: number,
  changes: ProfileChanges,
  guard: PasswordGuard,
) {
  const customer = await findCustomerById(deps.db, customerId);
  if (!customer?.active) throw new AppError('UNAUTHENTICATED', 'the account is no longer active');
  const values: ProfileValues = {};
  if (changes.firstName !== undefined) values.firstName = changes.firstName.trim();
  if (changes.lastName !== undefined) values.lastName = changes.lastName.trim();
  if (changes.phone !== undefined) values.phone = changes.phone?.trim() || null;
  if (changes.newsletter !== undefined) values.newsletter = changes.newsletter;
  if (changes.locale !== undefined) values.locale = await enabledLocale(deps.db, deps.config, changes.locale);
  const email = changes.email === undefined ? undefined : canonicalEmail(changes.email);
  if (email !== undefined && email !== customer.email) {
    const currentPassword = changes.currentPassword;
    if (currentPassword === undefined) {
      throw new AppError('VALIDATION_FAILED', 'a new email needs currentPassword', [
        { field: 'currentPassword', message: 'required with a new email' },
      ]);
    }
    await guard(normaliseLogin(customer.email), async () => {
      if (!(await verifyPassword(customer.passwordHash, currentPassword))) {
        throw new AppError('INVALID_CREDENTIALS', 'the current password is wrong');
      }
    });
    values.email = email;
  }
  if (Object.keys(values).length > 0) {
    try {
      await deps.db.transaction(async (tx) => {
        await updateCustomerProfile(tx, customerId, values);
        // A new address is confirmed like the first one was, when the shop asks for it.
        if (values.email !== undefined) {
          await startEmailVerification(tx, deps.config, {
            id: customerId,
            email: values.email,
            firstName: values.firstName ?? customer.firstName,
          });
        }
      });
    } catch (err) {
      if (isUniqueViolation(err))
        throw new AppError('EMAIL_TAKEN', 'this e-mail address is already registered');
      throw err;
    }
  }
  return customerProfile(deps.db, customerId);
}

/**
 * An admin of the database changes the own password, the current one checked as a login of the
 * account under `guard`; every session of the account ends.
 */
export async function changeAdminPassword(
  db: Db,
  sub: string,
  currentPassword: string,
  newPassword: string,
  guard: PasswordGuard,
): Promise<void> {
  const id = Number(sub);
  if (!Number.isSafeInteger(id) || id < 1) {
    await verifyDummyPassword(currentPassword);
    throw new AppError(
      'UNPROCESSABLE',
      'this account is defined in the configuration; change its password there',
    );
  }
  const wrongPassword = () => new AppError('INVALID_CREDENTIALS', 'the current password is wrong');
  const admin = await findAdminById(db, id);
  if (!admin?.active) {
    await verifyDummyPassword(currentPassword);
    throw wrongPassword();
  }
  await guard(normaliseLogin(admin.username), async () => {
    if (!(await verifyPassword(admin.passwordHash, currentPassword))) throw wrongPassword();
  });
  const passwordHash = await hashPassword(newPassword);
  await db.transaction(async (tx) => {
    await updateAdmin(tx, id, { passwordHash });
    // The fact only: a password or its hash never enters the log.
    const changes = { password: { before: null, after: 'changed' } };
    await recordAudit(tx, { actor: sub, action: 'password', entity: 'admin_user', entityId: id, changes });
  });
}
