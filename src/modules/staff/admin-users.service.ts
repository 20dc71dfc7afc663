import { randomBytes } from 'node:crypto';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { AppError } from '../../http/errors.ts';
import { changedFields, recordAudit } from '../audit/audit.ts';
import type { AdminUserCreate, AdminUserPatch } from '../auth/auth.schemas.ts';
import {
  type AdminUserChanges,
  countAdmins,
  findAdminById,
  insertAdmin,
  listAdmins,
  updateAdmin,
} from '../auth/auth.repo.ts';
import type { AdminUserRow } from '../auth/auth.tables.ts';
import { appliedPageSize, paginationOf } from '../../resources/index.ts';
import { canonicalEmail } from '../auth/email.ts';
import { hashPassword } from '../auth/passwords.ts';
import { mailAdminCode } from '../auth/admin-codes.ts';
import { findStaticUser } from '../auth/auth.service.ts';
import { Role } from '../../http/roles.ts';
import { okList } from '../../http/envelope.ts';

export interface AdminUserView {
  id: number;
  username: string;
  name: string;
  roles: number[];
  active: boolean;
  createdAt: string;
}

function view(row: AdminUserRow): AdminUserView {
  const { id, username, name, roles, active, createdAt } = row;
  return { id, username, name, roles, active, createdAt: createdAt.toISOString() };
}

function uniqueSorted(roles: readonly number[]): number[] {
  return [...new Set(roles)].sort((a, b) => a - b);
}

/** The admin making the change: its token subject and roles. */
export interface Actor {
  sub: string;
  roles: readonly number[];
}

/**
 * Only a Superuser may hand out the Superuser role or change a Superuser's account; otherwise an
 * Admin (3) could make themselves, or anyone, all-powerful. For the same reason an Admin changes
 * only accounts whose every role it holds (a richer account's password reset, e-mail, name or
 * activity would be a way into its roles), and grants or withdraws only roles it holds.
 */
function assertMayManage(
  actor: Actor,
  targetRoles: readonly number[],
  changedRoles: readonly number[],
): void {
  if (actor.roles.includes(Role.Superuser)) return;
  if (targetRoles.includes(Role.Superuser) || changedRoles.includes(Role.Superuser)) {
    throw new AppError('FORBIDDEN', 'only a Superuser may grant the Superuser role or change a Superuser');
  }
  const richer = targetRoles.filter((role) => !actor.roles.includes(role));
  if (richer.length > 0) {
    throw new AppError(
      'FORBIDDEN',
      `an admin may change only accounts whose every role it holds (not ${richer.join(', ')})`,
    );
  }
  const notHeld = changedRoles.filter((role) => !actor.roles.includes(role));
  if (notHeld.length > 0) {
    throw new AppError(
      'FORBIDDEN',
      `an admin may grant or withdraw only roles it holds (not ${notHeld.join(', ')})`,
    );
  }
}

/** The roles in one set and not the other: what a change grants or withdraws. */
function roleDifference(before: readonly number[], after: readonly number[]): number[] {
  return [...before.filter((r) => !after.includes(r)), ...after.filter((r) => !before.includes(r))];
}

/** Roles, name and activity before and after, in the audit log; a password only as the fact. */
async function auditAdmin(
  tx: Db,
  actor: Actor,
  action: 'create' | 'update' | 'password_reset',
  before: AdminUserRow | null,
  after: AdminUserRow,
  password?: string,
): Promise<void> {
  const fields = (r: AdminUserRow) => ({
    username: r.username,
    name: r.name,
    roles: r.roles,
    active: r.active,
  });
  const changes = changedFields(before && fields(before), fields(after));
  if (password) changes.password = { before: null, after: password };
  await recordAudit(tx, { actor: actor.sub, action, entity: 'admin_user', entityId: after.id, changes });
}

function notFound(): AppError {
  return new AppError('NOT_FOUND', 'no such admin user');
}

function taken(): AppError {
  return new AppError('CONFLICT', 'an admin user with this username exists');
}

/**
 * A configured user wins at login over a database user of the same username, so such a database
 * user could never sign in: refused like a duplicate.
 */
function assertNotStatic(config: Config, username: string): void {
  if (findStaticUser(config, username)) throw taken();
}

/** Opens an account; without a password its owner is e-mailed an invitation to choose one. */
export async function createAdminUser(
  db: Db,
  config: Config,
  actor: Actor,
  input: AdminUserCreate,
): Promise<AdminUserView> {
  const roles = uniqueSorted(input.roles);
  assertMayManage(actor, [], roles);
  const username = canonicalEmail(input.username, 'username');
  assertNotStatic(config, username);
  // An invited account has a password nobody knows until the owner chooses one.
  const passwordHash = await hashPassword(input.password ?? randomBytes(32).toString('base64url'));
  try {
    return await db.transaction(async (tx) => {
      const row = await insertAdmin(tx, {
        username,
        passwordHash,
        name: input.name?.trim() ?? '',
        roles,
        active: input.active ?? true,
      });
      await auditAdmin(tx, actor, 'create', null, row, input.password ? undefined : 'invitation sent');
      if (input.password === undefined) await mailAdminCode(tx, config, row, 'invitation');
      return view(row);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw taken();
    throw err;
  }
}

// Not the resource list path: staff accounts keep their reads beside writes with staff rules (roles, resets) the resource write path lacks.
export async function listAdminUsers(db: Db, query: { page?: number; limit?: number }) {
  const page = query.page ?? 1;
  const limit = appliedPageSize(query.limit ?? 0, 'backend', Number.MAX_SAFE_INTEGER);
  const [rows, total] = await Promise.all([listAdmins(db, (page - 1) * limit, limit), countAdmins(db)]);
  return okList(rows.map(view), paginationOf(page, limit, total));
}

export async function getAdminUser(db: Db, id: number): Promise<AdminUserView> {
  const row = await findAdminById(db, id);
  if (!row) throw notFound();
  return view(row);
}

function changedRoles(row: AdminUserRow, roles: number[] | undefined): number[] | undefined {
  if (roles === undefined) return undefined;
  const next = uniqueSorted(roles);
  return next.join(',') === uniqueSorted(row.roles).join(',') ? undefined : next;
}

/** Applies a patch to an account the actor may manage; nobody changes their own roles. */
export async function updateAdminUser(
  db: Db,
  config: Config,
  actor: Actor,
  id: number,
  patch: AdminUserPatch,
): Promise<AdminUserView> {
  const username = patch.username === undefined ? undefined : canonicalEmail(patch.username, 'username');
  if (username !== undefined) assertNotStatic(config, username);
  try {
    return await db.transaction(async (tx) => {
      const row = await findAdminById(tx, id, true);
      if (!row) throw notFound();
      const roles = changedRoles(row, patch.roles);
      if (roles !== undefined && actor.sub === String(id)) {
        throw new AppError('FORBIDDEN', 'nobody changes their own roles');
      }
      assertMayManage(actor, row.roles, roles ? roleDifference(row.roles, roles) : []);
      const changes: AdminUserChanges = { username, roles, name: patch.name?.trim(), active: patch.active };
      // Disabling or new roles end every session of the user (a database trigger).
      const updated = await updateAdmin(tx, id, changes);
      await auditAdmin(tx, actor, 'update', row, updated);
      return view(updated);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw taken();
    throw err;
  }
}

/** E-mails the owner of an account the actor may manage a code to choose a new password. */
export async function requestAdminPasswordReset(
  db: Db,
  config: Config,
  actor: Actor,
  id: number,
): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await findAdminById(tx, id, true);
    if (!row) throw notFound();
    assertMayManage(actor, row.roles, []);
    await auditAdmin(tx, actor, 'password_reset', row, row, 'reset e-mail sent');
    await mailAdminCode(tx, config, row, 'password_reset');
  });
}
