import { randomBytes } from 'node:crypto';
import { hashOpaqueToken } from '../auth/tokens.ts';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../http/errors.ts';
import { recordAudit } from '../audit/audit.ts';
import { writeMail } from '../mail/mail.service.ts';
import { type AdminTokenPurpose, adminAccountToken } from './account-tokens.tables.ts';
import { updateAdmin } from '../auth/auth.repo.ts';
import type { AdminUserRow } from '../auth/auth.tables.ts';
import { hashPassword } from '../auth/passwords.ts';

// Nobody sets another back-office user's password: the owner chooses it with a single-use code
// e-mailed to the username (an invitation when the account is opened without a password, a reset
// asked by an Admin). The codes work like the customers' (self-service.service.ts).

/** How long a reset code asked by an Admin is valid. */
export const ADMIN_RESET_MINUTES = 30;
/** How long an invitation is valid: the new user may not read it the same hour. */
export const INVITATION_DAYS = 7;

/** A fresh code of 256 random bits; an older unused one of the account stops working. */
async function issueAdminCode(
  db: Db,
  adminUserId: number,
  purpose: AdminTokenPurpose,
  validMs: number,
): Promise<string> {
  const code = randomBytes(32).toString('base64url');
  await db
    .update(adminAccountToken)
    .set({ usedAt: sql`now()` })
    .where(and(eq(adminAccountToken.adminUserId, adminUserId), isNull(adminAccountToken.usedAt)));
  await db.insert(adminAccountToken).values({
    adminUserId,
    purpose,
    tokenHash: hashOpaqueToken(code),
    expiresAt: new Date(Date.now() + validMs),
  });
  return code;
}

/**
 * Writes the invitation or the reset e-mail to the account's username (its e-mail address), in
 * the transaction of its cause.
 */
export async function mailAdminCode(
  db: Db,
  config: Config,
  admin: Pick<AdminUserRow, 'id' | 'username' | 'name'>,
  purpose: AdminTokenPurpose,
): Promise<void> {
  const name = admin.name || admin.username;
  if (purpose === 'invitation') {
    const token = await issueAdminCode(db, admin.id, purpose, INVITATION_DAYS * 86_400_000);
    await writeMail(db, config, admin.username, {
      template: 'admin_invitation',
      name,
      token,
      days: INVITATION_DAYS,
    });
  } else {
    const token = await issueAdminCode(db, admin.id, purpose, ADMIN_RESET_MINUTES * 60_000);
    const minutes = ADMIN_RESET_MINUTES;
    await writeMail(db, config, admin.username, { template: 'admin_password_reset', name, token, minutes });
  }
}

/**
 * Sets the password the owner chose with an e-mailed code; the database trigger on password_hash
 * ends every session of the account. A used, expired or unknown code is 400 TOKEN_INVALID.
 */
export async function confirmAdminPasswordReset(db: Db, code: string, password: string): Promise<void> {
  const passwordHash = await hashPassword(password);
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(adminAccountToken)
      .set({ usedAt: sql`now()` })
      .where(
        and(
          eq(adminAccountToken.tokenHash, hashOpaqueToken(code)),
          isNull(adminAccountToken.usedAt),
          gt(adminAccountToken.expiresAt, sql`now()`),
        ),
      )
      .returning({ adminUserId: adminAccountToken.adminUserId });
    if (!row) throw new AppError('TOKEN_INVALID', 'the code is not valid (used, expired or unknown)');
    await updateAdmin(tx, row.adminUserId, { passwordHash });
    await recordAudit(tx, {
      actor: String(row.adminUserId),
      action: 'password_reset',
      entity: 'admin_user',
      entityId: row.adminUserId,
      changes: { password: { before: null, after: 'chosen by the owner' } },
    });
  });
}
