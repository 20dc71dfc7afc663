import type { LightMyRequestResponse } from 'fastify';
import type { App } from '../../../src/app.ts';
import { ALL_ROLE_IDS, Role } from '../../../src/http/roles.ts';
import { bearer } from '../app.ts';
import { sized, Tally } from './figures.ts';
import { uniqueEmail } from './fixtures.ts';

// The back-office user writes under every role (docs/security.md, "Who reads what"): an admin
// without Admin (3) is refused by the guard; an Admin changes, and e-mails a reset to, only an
// account whose every role it holds, grants only roles it holds, never touches a Superuser; a
// Superuser may do all; a password is never set through PATCH. A refused write changes nothing.

const PATH = '/rest/system/admin-user';

type Want = 201 | 200 | 202 | 400 | 403;

interface Target {
  id: number;
  username: string;
  roles: number[];
}

/** The callers: every role alone, and Admin (3) with every other role (the short form: one). */
function actors(): number[][] {
  const withAdmin = sized([Role.Marketing], ALL_ROLE_IDS);
  const sets = [...ALL_ROLE_IDS.map((r) => [r]), ...withAdmin.map((r) => [Role.Admin, r])];
  const keys = new Set<string>();
  return sets
    .map((roles) => [...new Set(roles)].sort((a, b) => a - b))
    .filter((roles) => !keys.has(roles.join()) && keys.add(roles.join()));
}

/** A role none of `roles` is, other than Superuser: what makes an account richer. */
function roleBeyond(roles: readonly number[]): number {
  return ALL_ROLE_IDS.find((r) => r !== Role.Superuser && !roles.includes(r)) ?? Role.Media;
}

export interface AdminUserSweep {
  actors: number;
  calls: number;
  outcomes: Tally;
  /** Every answer that is not the documented one, and every refused write that changed the row. */
  wrong: string[];
  /** Addresses that must have been e-mailed a reset (202), and those that must not. */
  mailed: string[];
  notMailed: string[];
}

export async function sweepAdminUserWrites(
  app: App,
  root: string,
  mint: (roles: number[]) => Promise<string>,
): Promise<AdminUserSweep> {
  const sweep: AdminUserSweep = {
    actors: 0,
    calls: 0,
    outcomes: new Tally(),
    wrong: [],
    mailed: [],
    notMailed: [],
  };
  const create = async (roles: number[]): Promise<Target> => {
    const username = uniqueEmail('swept');
    const res = await app.inject({
      method: 'POST',
      url: PATH,
      headers: bearer(root),
      payload: { username, password: 'swept-password-1', roles },
    });
    if (res.statusCode !== 201) throw new Error(`create answered ${res.statusCode} ${res.body}`);
    return { id: (res.json() as { data: { id: number } }).data.id, username, roles };
  };
  const shown = async (target: Target) =>
    (await app.inject({ method: 'GET', url: `${PATH}/${target.id}`, headers: bearer(root) })).body;

  for (const held of actors()) {
    sweep.actors++;
    const token = await mint(held);
    const superuser = held.includes(Role.Superuser);
    const admin = superuser || held.includes(Role.Admin);
    const grantable = held.filter((r) => r !== Role.Superuser);
    const poorer = await create(grantable.length ? [grantable[0]] : [Role.Products]);
    const richer = await create([...grantable, roleBeyond(held)]);
    const top = await create([Role.Superuser]);
    /** The documented answer of a write that an Admin may do only on accounts it covers. */
    const onAccount = (covered: boolean, success: Want): Want =>
      !admin ? 403 : superuser || covered ? success : 403;
    const call = async (
      label: string,
      target: Target | undefined,
      want: Want,
      send: () => Promise<LightMyRequestResponse>,
    ) => {
      const before = target && want !== 200 && want !== 202 ? await shown(target) : undefined;
      const res = await send();
      sweep.calls++;
      sweep.outcomes.add(res.statusCode);
      if (res.statusCode !== want)
        sweep.wrong.push(`[${held}] ${label}: ${res.statusCode} ${res.body.slice(0, 160)}, expected ${want}`);
      if (target && before !== undefined && (await shown(target)) !== before)
        sweep.wrong.push(`[${held}] ${label}: refused, yet the account changed`);
      return res;
    };
    const patch = (target: Target, payload: object) => () =>
      app.inject({ method: 'PATCH', url: `${PATH}/${target.id}`, headers: bearer(token), payload });
    const reset = (target: Target) => () =>
      app.inject({ method: 'POST', url: `${PATH}/${target.id}/password-reset`, headers: bearer(token) });
    const createAs = (roles: number[]) => () =>
      app.inject({
        method: 'POST',
        url: PATH,
        headers: bearer(token),
        payload: { username: uniqueEmail('made'), password: 'made-password-1', roles },
      });

    await call('create with held roles', undefined, onAccount(true, 201), createAs(poorer.roles));
    await call('create with a role beyond', undefined, onAccount(false, 201), createAs(richer.roles));
    await call('create a Superuser', undefined, onAccount(false, 201), createAs([Role.Superuser]));
    for (const [target, covered] of [
      [richer, false],
      [top, false],
      [poorer, true],
    ] as const) {
      const kind = target === poorer ? 'poorer' : target === top ? 'Superuser' : 'richer';
      await call(
        `patch name of ${kind}`,
        target,
        onAccount(covered, 200),
        patch(target, { name: `by ${held}` }),
      );
      await call(
        `patch password of ${kind}`,
        target,
        admin ? 400 : 403,
        patch(target, { password: 'taken-over-1' }),
      );
      await call(`reset of ${kind}`, target, onAccount(covered, 202), reset(target));
      (onAccount(covered, 202) === 202 ? sweep.mailed : sweep.notMailed).push(target.username);
      await call(
        `patch active of ${kind}`,
        target,
        onAccount(covered, 200),
        patch(target, { active: false }),
      );
      await call(`patch roles of ${kind}`, target, onAccount(covered, 200), patch(target, { roles: [] }));
    }
  }
  return sweep;
}
