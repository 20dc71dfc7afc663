import { and, asc, count, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { type CustomerRow, customers } from '../customers/customer.tables.ts';
import { type AdminUserRow, adminUsers, refreshTokens } from './auth.tables.ts';
import type { AuthContext } from './tokens.ts';

// Customers. E-mails arrive normalised (trimmed, lower-cased); lower() uses the unique index.

export async function findCustomerByEmail(db: Db, email: string): Promise<CustomerRow | undefined> {
  const [row] = await db.select().from(customers).where(sql`lower(${customers.email}) = ${email}`).limit(1);
  return row;
}

export async function findCustomerById(db: Db, id: number): Promise<CustomerRow | undefined> {
  const [row] = await db.select().from(customers).where(eq(customers.id, id)).limit(1);
  return row;
}

// Admin users. Usernames arrive normalised.

export async function findAdminByUsername(db: Db, username: string): Promise<AdminUserRow | undefined> {
  const [row] = await db
    .select()
    .from(adminUsers)
    .where(sql`lower(${adminUsers.username}) = ${username}`)
    .limit(1);
  return row;
}

export async function findAdminById(
  db: Db,
  id: number,
  forUpdate = false,
): Promise<AdminUserRow | undefined> {
  const query = db.select().from(adminUsers).where(eq(adminUsers.id, id)).limit(1);
  const [row] = forUpdate ? await query.for('update') : await query;
  return row;
}

export async function listAdmins(db: Db, offset: number, limit: number): Promise<AdminUserRow[]> {
  return db.select().from(adminUsers).orderBy(asc(adminUsers.id)).offset(offset).limit(limit);
}

export async function countAdmins(db: Db): Promise<number> {
  const [row] = await db.select({ total: count() }).from(adminUsers);
  return row.total;
}

export type NewAdminUser = Pick<AdminUserRow, 'username' | 'passwordHash' | 'name' | 'roles' | 'active'>;

export async function insertAdmin(db: Db, values: NewAdminUser): Promise<AdminUserRow> {
  const [row] = await db.insert(adminUsers).values(values).returning();
  return row;
}

export type AdminUserChanges = Partial<
  Pick<AdminUserRow, 'username' | 'passwordHash' | 'name' | 'roles' | 'active'>
>;

export async function updateAdmin(db: Db, id: number, changes: AdminUserChanges): Promise<AdminUserRow> {
  const [row] = await db
    .update(adminUsers)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(eq(adminUsers.id, id))
    .returning();
  return row;
}

// Refresh tokens: looked up by the sha256 of the token, never by the token itself.

export interface NewRefreshToken {
  tokenHash: string;
  context: AuthContext;
  subject: string;
  expiresAt: Date;
}

/** Stores a refresh token; its id is the session that access tokens name. */
export async function insertRefreshToken(db: Db, values: NewRefreshToken): Promise<number> {
  const [row] = await db.insert(refreshTokens).values(values).returning({ id: refreshTokens.id });
  return row.id;
}

/** The session of a refresh token that is of this context, not revoked and not expired. */
export async function findLiveRefreshSession(
  db: Db,
  tokenHash: string,
  context: AuthContext,
): Promise<{ id: number; subject: string } | undefined> {
  const [row] = await db
    .select({ id: refreshTokens.id, subject: refreshTokens.subject })
    .from(refreshTokens)
    .where(
      and(
        eq(refreshTokens.tokenHash, tokenHash),
        eq(refreshTokens.context, context),
        isNull(refreshTokens.revokedAt),
        gt(refreshTokens.expiresAt, sql`now()`),
      ),
    )
    .limit(1);
  return row;
}

export async function revokeRefreshToken(db: Db, tokenHash: string, context: AuthContext): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: sql`now()` })
    .where(
      and(
        eq(refreshTokens.tokenHash, tokenHash),
        eq(refreshTokens.context, context),
        isNull(refreshTokens.revokedAt),
      ),
    );
}
