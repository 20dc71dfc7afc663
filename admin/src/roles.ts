// The back-office roles by name (docs/security.md): the one place the back office spells their ids,
// the same as the service's (src/http/roles.ts). Superuser passes every role check.

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

export type RoleName = keyof typeof Role;
export type RoleId = (typeof Role)[RoleName];

/** The roles in id order (the order they are declared in), for lists and choices. */
export const ROLES: readonly { id: RoleId; name: string }[] = Object.entries(Role).map(([name, id]) => ({
  id,
  name,
}));

/** Whether `roles` hold one of `accepted` (a Superuser holds them all). */
export function holdsAnyRole(roles: readonly number[], accepted: readonly RoleId[]): boolean {
  return roles.includes(Role.Superuser) || accepted.some((role) => roles.includes(role));
}
