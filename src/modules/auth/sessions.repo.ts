import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client.ts';
import type { AuthContext } from './tokens.ts';

// Sessions are refresh-token rows: an access token names its row in `sid`. Revocations reach
// every instance through auth_session_revocation, filled by triggers (drizzle/0008_…) whenever
// a refresh token is revoked, an account is disabled or deleted, or its password or roles change.

/** True when the session exists for this account and context and is neither revoked nor expired. */
export async function sessionIsLive(
  db: Db,
  sid: number,
  ctx: AuthContext,
  subject: string,
): Promise<boolean> {
  const rows = await queryRows<{ live: boolean }>(
    db,
    sql`select true as "live" from refresh_token
        where id = ${sid} and context = ${ctx} and subject = ${subject}
          and revoked_at is null and expires_at > now()`,
  );
  return rows.length > 0;
}

export interface RevokedSession {
  sid: number;
  /** Milliseconds since the epoch, database clock. */
  at: number;
}

/** Sessions revoked after `sinceMs` (database clock), and the database's clock now. */
export async function revokedSince(
  db: Db,
  sinceMs: number,
): Promise<{ sessions: RevokedSession[]; nowMs: number }> {
  const rows = await queryRows<{
    sid: string | number | null;
    at: string | number | null;
    now: string | number;
  }>(
    db,
    sql`select r.session_id as "sid", (extract(epoch from r.revoked_at) * 1000)::float8 as "at",
               (extract(epoch from now()) * 1000)::float8 as "now"
        from (select 1) one
        left join auth_session_revocation r on r.revoked_at > to_timestamp(${sinceMs / 1000})`,
  );
  const nowMs = Number(rows[0]?.now ?? Date.now());
  const sessions = rows.flatMap((r) => (r.sid === null ? [] : [{ sid: Number(r.sid), at: Number(r.at) }]));
  return { sessions, nowMs };
}

/** Drops feed rows older than any access token that could still name them. */
export async function pruneRevocations(db: Db, olderThanSeconds: number): Promise<void> {
  await db.execute(
    sql`delete from auth_session_revocation where revoked_at < now() - make_interval(secs => ${olderThanSeconds})`,
  );
}

/**
 * The signing key of a deployment without a configured secret: made once, at the first start,
 * and kept in the database so that restarts and every instance share it. Concurrent first starts
 * agree on whichever row was inserted first.
 */
export async function storedSigningSecret(db: Db): Promise<string> {
  const candidate = randomBytes(32).toString('base64url');
  await db.execute(
    sql`insert into auth_signing_key (id, secret) values (1, ${candidate}) on conflict (id) do nothing`,
  );
  const [row] = await queryRows<{ secret: string }>(
    db,
    sql`select secret from auth_signing_key where id = 1`,
  );
  return row.secret;
}
