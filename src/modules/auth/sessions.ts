import type { Db } from '../../db/client.ts';
import type { Authenticate } from '../../http/access.ts';
import { AppError } from '../../http/errors.ts';
import { insertRefreshToken } from './auth.repo.ts';
import { pruneRevocations, revokedSince, sessionIsLive } from './sessions.repo.ts';
import {
  type AccessClaims,
  type AccessTokens,
  hashOpaqueToken,
  LEEWAY_SECONDS,
  newRefreshToken,
  TokenError,
} from './tokens.ts';

export interface TokenPair {
  access_token: string;
  refresh_token: string;
}

export interface SessionOptions {
  accessTtlSeconds: number;
  refreshTtlSeconds: number;
  /** How often every instance reads the revocation feed; revocations elsewhere take effect within it. */
  pollMs: number;
  onPollError(err: unknown): void;
  /** Told after each poll that read the feed. */
  onPollOk?(): void;
}

/** Verified tokens kept so a client's repeated requests skip the signature and session checks. */
const VERIFIED_CACHE_SIZE = 50_000;
/** A poll re-reads this much of the feed before its last reading: a revoking transaction may commit late. */
const FEED_OVERLAP_MS = 5_000;
/** Polls between two prunings of the feed table. */
const PRUNE_EVERY = 240;

/**
 * Access tokens that end with their session. Cheap on every request: a token is checked against
 * the database once (its session exists, belongs to its subject and is live), then kept until it
 * expires; each request only asks an in-memory set whether its session was revoked since. The
 * set is filled from the revocation feed: read every `pollMs` on every instance, and at once on
 * the instance that revoked (`sync()` before it answers).
 */
export class Sessions {
  private readonly verified = new Map<string, { claims: AccessClaims; exp: number }>();
  private readonly revoked = new Map<number, number>();
  private sinceMs = 0;
  private polls = 0;
  private timer: NodeJS.Timeout | undefined;
  private polling = false;

  constructor(
    private readonly db: Db,
    private readonly tokens: AccessTokens,
    private readonly options: SessionOptions,
  ) {}

  /** Opens a session: a refresh token (only its hash stored) and an access token naming it. */
  async open(claims: Omit<AccessClaims, 'sid'>, db: Db = this.db): Promise<TokenPair> {
    const refreshToken = newRefreshToken();
    const sid = await insertRefreshToken(db, {
      tokenHash: hashOpaqueToken(refreshToken),
      context: claims.ctx,
      subject: claims.sub,
      expiresAt: new Date(Date.now() + this.options.refreshTtlSeconds * 1000),
    });
    return { access_token: await this.tokens.sign({ ...claims, sid }), refresh_token: refreshToken };
  }

  /** The claims of a token whose session is live; TokenError otherwise. */
  async authenticate(token: string): Promise<AccessClaims> {
    let entry = this.verified.get(token);
    if (entry && entry.exp + LEEWAY_SECONDS <= Date.now() / 1000) {
      this.verified.delete(token);
      throw new TokenError(true);
    }
    if (!entry) {
      entry = await this.tokens.verify(token);
      const { sid, ctx, sub } = entry.claims;
      if (!(await sessionIsLive(this.db, sid, ctx, sub))) throw new TokenError(false);
      if (this.verified.size >= VERIFIED_CACHE_SIZE) {
        this.verified.delete(this.verified.keys().next().value as string);
      }
      this.verified.set(token, entry);
    }
    if (this.revoked.has(entry.claims.sid)) throw new TokenError(false);
    return entry.claims;
  }

  /** Reads the feed now: after a revoking write, before its answer leaves this instance. */
  async sync(): Promise<void> {
    const { sessions, nowMs } = await revokedSince(this.db, this.sinceMs);
    for (const { sid, at } of sessions) this.revoked.set(sid, at);
    this.sinceMs = Math.max(this.sinceMs, nowMs - FEED_OVERLAP_MS);
    // A session revoked longer ago than a token lives can have no token left to refuse.
    const horizon = nowMs - (this.options.accessTtlSeconds + LEEWAY_SECONDS) * 1000 - FEED_OVERLAP_MS;
    for (const [sid, at] of this.revoked) if (at < horizon) this.revoked.delete(sid);
    if (++this.polls % PRUNE_EVERY === 0) {
      await pruneRevocations(
        this.db,
        this.options.accessTtlSeconds + LEEWAY_SECONDS + FEED_OVERLAP_MS / 1000,
      );
    }
  }

  /** Reads the feed once, then every `pollMs` until `stop()`. */
  async start(): Promise<void> {
    await this.sync();
    this.timer = setInterval(() => {
      if (this.polling) return;
      this.polling = true;
      this.sync()
        .then(
          () => this.options.onPollOk?.(),
          (err) => this.options.onPollError(err),
        )
        .finally(() => {
          this.polling = false;
        });
    }, this.options.pollMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

/** The app's bearer-token check: the caller of a live session, or 401 (TOKEN_EXPIRED when expired). */
export function authenticateWith(sessions: Sessions): Authenticate {
  return async (token) => {
    try {
      const claims = await sessions.authenticate(token);
      return claims.ctx === 'customer'
        ? { kind: 'customer', customerId: Number(claims.sub) }
        : { kind: 'admin', sub: claims.sub, roles: claims.roles ?? [] };
    } catch (err) {
      if (!(err instanceof TokenError)) throw err;
      if (err.expired) throw new AppError('TOKEN_EXPIRED', 'the access token has expired');
      throw new AppError('UNAUTHENTICATED', 'the access token is not valid or its session has ended');
    }
  };
}
