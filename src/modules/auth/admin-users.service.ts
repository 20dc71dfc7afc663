import type { Db } from '../../db/client.ts';
import { AppError } from '../../http/errors.ts';
import type { AdminUserCreate, AdminUserPatch } from './auth.schemas.ts';
import {
  type AdminUserChanges,
  countAdmins,
  findAdminById,
  insertAdmin,
  isUniqueViolation,
  listAdmins,
  revokeSubjectRefreshTokens,
  updateAdmin,
} from './auth.repo.ts';
import type { AdminUserRow } from './auth.tables.ts';
import { hashPassword } from './passwords.ts';
import { Role } from './roles.ts';

export interface AdminUserView {
  id: number;
  username: string;
  name: string;
  roles: number[];
  active: boolean;
  createdAt: string;
}

export const DEFAULT_PAGE_SIZE = 15;

function view(row: AdminUserRow): AdminUserView {
  const { id, username, name, roles, active, createdAt } = row;
  return { id, username, name, roles, active, createdAt: createdAt.toISOString() };
}

function uniqueSorted(roles: readonly number[]): number[] {
  return [...new Set(roles)].sort((a, b) => a - b);
}

/**
 * Only a Superuser may hand out the Superuser role or change a Superuser's account;
 * otherwise an Admin (3) could make themselves, or anyone, all-powerful.
 */
function assertMayManage(actorRoles: readonly number[], roles: readonly number[]): void {
  if (roles.includes(Role.Superuser) && !actorRoles.includes(Role.Superuser)) {
    throw new AppError('FORBIDDEN', 'only a Superuser may grant the Superuser role or change a Superuser');
  }
}

function notFound(): AppError {
  return new AppError('NOT_FOUND', 'no such admin user');
}

export async function createAdminUser(
  db: Db,
  actorRoles: number[],
  input: AdminUserCreate,
): Promise<AdminUserView> {
  const roles = uniqueSorted(input.roles);
  assertMayManage(actorRoles, roles);
  const passwordHash = await hashPassword(input.password);
  try {
    const row = await insertAdmin(db, {
      username: input.username.trim().toLowerCase(),
      passwordHash,
      name: input.name?.trim() ?? '',
      roles,
      active: input.active ?? true,
    });
    return view(row);
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('CONFLICT', 'an admin user with this username exists');
    throw err;
  }
}

export async function listAdminUsers(db: Db, page: number, requestedLimit: number | '') {
  const limit = requestedLimit || DEFAULT_PAGE_SIZE;
  const [rows, total] = await Promise.all([listAdmins(db, (page - 1) * limit, limit), countAdmins(db)]);
  const totalPages = Math.ceil(total / limit);
  return {
    data: rows.map(view),
    pagination: {
      current_page: page,
      per_page: limit,
      total,
      total_pages: totalPages,
      has_next: page < totalPages,
      has_prev: page > 1,
    },
  };
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

/**
 * Applies a patch. Disabling the user, changing its roles or its password revokes its
 * refresh tokens in the same transaction, so the change holds at the next refresh at the latest.
 */
export async function updateAdminUser(
  db: Db,
  actorRoles: number[],
  id: number,
  patch: AdminUserPatch,
): Promise<AdminUserView> {
  const passwordHash = patch.password === undefined ? undefined : await hashPassword(patch.password);
  return db.transaction(async (tx) => {
    const row = await findAdminById(tx, id, true);
    if (!row) throw notFound();
    const roles = changedRoles(row, patch.roles);
    assertMayManage(actorRoles, [...row.roles, ...(roles ?? [])]);
    const changes: AdminUserChanges = { roles, passwordHash, name: patch.name?.trim(), active: patch.active };
    const updated = await updateAdmin(tx, id, changes);
    const disabled = row.active && patch.active === false;
    if (disabled || roles !== undefined || passwordHash !== undefined) {
      await revokeSubjectRefreshTokens(tx, 'admin', String(id));
    }
    return view(updated);
  });
}
