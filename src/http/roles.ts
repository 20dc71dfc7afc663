/** The back-office roles (docs/security.md); Superuser passes every role check. */
export const Role = {
  Superuser: 1,
  Developer: 2,
  Admin: 3,
  CMS: 4,
  Products: 5,
  Orders: 6,
  Reporting: 7,
  Marketing: 8,
  Media: 9,
} as const;

export type RoleId = (typeof Role)[keyof typeof Role];

export const ALL_ROLE_IDS = Object.values(Role) as RoleId[];

/** True when roles satisfy any of the accepted ones (Superuser always does). */
export function hasAnyRole(roles: readonly number[], accepted: readonly RoleId[]): boolean {
  if (roles.includes(Role.Superuser)) return true;
  return accepted.length === 0 || accepted.some((r) => roles.includes(r));
}
