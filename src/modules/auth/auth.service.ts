import { enabledLocale } from './customer-profile.ts';
import type { Config, StaticUserConfig } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { AppError } from '../../http/errors.ts';
import { insertCustomer, setCustomerPassword } from '../customers/customer.repo.ts';
import { recordEvent } from '../outbox/outbox.ts';
import {
  findAdminById,
  findAdminByUsername,
  findCustomerByEmail,
  findCustomerById,
  findLiveRefreshSession,
  revokeRefreshToken,
} from './auth.repo.ts';
import { canonicalEmail, normaliseLogin } from './email.ts';
import type { PasswordGuard } from './login-limits.ts';
import { startEmailVerification } from './self-service.service.ts';
import { hashPassword, plainPasswordMatches, verifyDummyPassword, verifyPassword } from './passwords.ts';
import type { AuthDeps } from './auth-deps.ts';
import type { TokenPair } from './sessions.ts';
import { type AccessClaims, type AuthContext, hashOpaqueToken } from './tokens.ts';

export type { AuthDeps };

export type { TokenPair };

export interface AdminIdentity {
  id: string;
  username: string;
  name: string;
  roles: number[];
}

export interface Registration {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  phone?: string;
  newsletter?: boolean;
  locale?: string;
}

const STATIC_PREFIX = 'static:';

function invalidCredentials(): AppError {
  return new AppError('INVALID_CREDENTIALS', 'the e-mail address or the password is wrong');
}

function invalidRefreshToken(): AppError {
  return new AppError('INVALID_REFRESH_TOKEN', 'the refresh token is not valid');
}

/** A new session: a refresh token and an access token naming it. */
function issuePair(deps: AuthDeps, claims: Omit<AccessClaims, 'sid'>, db: Db = deps.db): Promise<TokenPair> {
  return deps.sessions.open(claims, db);
}

export function findStaticUser(config: Config, username: string): StaticUserConfig | undefined {
  return config.staticUsers.find((user) => normaliseLogin(user.username) === username);
}

function staticPasswordMatches(user: StaticUserConfig, password: string): Promise<boolean> | boolean {
  if (user.passwordHash) return verifyPassword(user.passwordHash, password);
  return plainPasswordMatches(user.password ?? '', password);
}

/** The admin behind a token subject as it is now, or undefined when it may no longer sign in. */
export async function currentAdmin(deps: AuthDeps, sub: string): Promise<AdminIdentity | undefined> {
  if (sub.startsWith(STATIC_PREFIX)) {
    const user = findStaticUser(deps.config, sub.slice(STATIC_PREFIX.length));
    return user && { id: sub, username: normaliseLogin(user.username), name: user.name, roles: user.roles };
  }
  const id = Number(sub);
  if (!Number.isSafeInteger(id) || id < 1) return undefined;
  const row = await findAdminById(deps.db, id);
  // A static user of the same name shadows the database user (it always wins at login).
  if (!row?.active || findStaticUser(deps.config, normaliseLogin(row.username))) return undefined;
  return { id: sub, username: row.username, name: row.name, roles: row.roles };
}

/** Static users (configuration) first, then database admins; every failure answers alike. */
export async function loginAdmin(deps: AuthDeps, login: string, password: string): Promise<TokenPair> {
  const username = normaliseLogin(login);
  const staticUser = findStaticUser(deps.config, username);
  if (staticUser) {
    if (!(await staticPasswordMatches(staticUser, password))) throw invalidCredentials();
    return issuePair(deps, { sub: `${STATIC_PREFIX}${username}`, ctx: 'admin', roles: staticUser.roles });
  }
  const user = await findAdminByUsername(deps.db, username);
  const matches = user
    ? await verifyPassword(user.passwordHash, password)
    : await verifyDummyPassword(password);
  if (!user || !matches || !user.active) throw invalidCredentials();
  return issuePair(deps, { sub: String(user.id), ctx: 'admin', roles: user.roles });
}

export async function loginCustomer(deps: AuthDeps, login: string, password: string): Promise<TokenPair> {
  const customer = await findCustomerByEmail(deps.db, normaliseLogin(login));
  const matches = customer
    ? await verifyPassword(customer.passwordHash, password)
    : await verifyDummyPassword(password);
  if (!customer || !matches || !customer.active) throw invalidCredentials();
  return issuePair(deps, { sub: String(customer.id), ctx: 'customer' });
}

/**
 * Creates a customer from the known fields only (never roles, points or id), records
 * `customer.registered` in the same transaction and logs the customer in. The unique index
 * on lower(email) decides races: the loser's unique violation becomes EMAIL_TAKEN.
 */
export async function registerCustomer(deps: AuthDeps, input: Registration): Promise<TokenPair> {
  const email = canonicalEmail(input.email);
  const passwordHash = await hashPassword(input.password);
  const values = {
    email,
    passwordHash,
    firstName: input.firstName.trim(),
    lastName: input.lastName.trim(),
    phone: input.phone?.trim() || null,
    newsletter: input.newsletter ?? false,
    locale: (await enabledLocale(deps.db, deps.config, input.locale)) ?? null,
  };
  try {
    return await deps.db.transaction(async (tx) => {
      const customer = await insertCustomer(tx, values);
      await recordEvent(tx, 'customer.registered', { customerId: customer.id });
      await startEmailVerification(tx, deps.config, customer);
      return issuePair(deps, { sub: String(customer.id), ctx: 'customer' }, tx);
    });
  } catch (err) {
    if (isUniqueViolation(err))
      throw new AppError('EMAIL_TAKEN', 'this e-mail address is already registered');
    throw err;
  }
}

/** Claims for a new access token from the account as it is now (current roles; disabled: none). */
async function refreshedClaims(
  deps: AuthDeps,
  ctx: AuthContext,
  subject: string,
): Promise<Omit<AccessClaims, 'sid'> | undefined> {
  if (ctx === 'admin') {
    const admin = await currentAdmin(deps, subject);
    return admin && { sub: subject, ctx, roles: admin.roles };
  }
  const customer = await findCustomerById(deps.db, Number(subject));
  return customer?.active ? { sub: subject, ctx } : undefined;
}

/** A new access token; the refresh token does not rotate and stays valid until it expires or is revoked. */
export async function refreshAccess(deps: AuthDeps, ctx: AuthContext, refreshToken: string) {
  const session = await findLiveRefreshSession(deps.db, hashOpaqueToken(refreshToken), ctx);
  const claims = session === undefined ? undefined : await refreshedClaims(deps, ctx, session.subject);
  if (!session || !claims) throw invalidRefreshToken();
  return { access_token: await deps.tokens.sign({ ...claims, sid: session.id }) };
}

/**
 * Revokes the refresh token. An unknown, expired or already revoked token is not an error:
 * the caller's goal (the token no longer works) holds either way, retries are harmless, and
 * the answer never tells whether a guessed token existed.
 */
export async function logout(deps: AuthDeps, ctx: AuthContext, refreshToken: string): Promise<void> {
  await revokeRefreshToken(deps.db, hashOpaqueToken(refreshToken), ctx);
}

/**
 * Checks the current password, a failed login of the account under `guard`, and stores the new
 * one; the database ends every session of the account.
 */
export async function changeCustomerPassword(
  deps: AuthDeps,
  customerId: number,
  currentPassword: string,
  newPassword: string,
  guard: PasswordGuard,
): Promise<void> {
  const customer = await findCustomerById(deps.db, customerId);
  if (!customer?.active) {
    await verifyDummyPassword(currentPassword);
    throw invalidCredentials();
  }
  await guard(normaliseLogin(customer.email), async () => {
    if (!(await verifyPassword(customer.passwordHash, currentPassword))) throw invalidCredentials();
  });
  const passwordHash = await hashPassword(newPassword);
  await setCustomerPassword(deps.db, customerId, passwordHash);
}

export async function adminProfile(deps: AuthDeps, sub: string): Promise<AdminIdentity> {
  const admin = await currentAdmin(deps, sub);
  if (!admin) throw new AppError('UNAUTHENTICATED', 'the account is no longer active');
  return admin;
}
