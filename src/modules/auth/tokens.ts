import {
  createHash,
  createSecretKey,
  randomBytes,
  randomUUID,
  type KeyObject,
  createHmac,
} from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';

export type AuthContext = 'admin' | 'customer';

export interface AccessClaims {
  sub: string;
  ctx: AuthContext;
  roles?: number[];
  /** The session: the id of the refresh token this access token came from (revocation ends it). */
  sid: number;
}

export interface TokenSettings {
  secret: string;
  issuer: string;
  accessTtlSeconds: number;
}

const ALGORITHM = 'HS256';
/** Clock skew tolerated between instances. */
export const LEEWAY_SECONDS = 5;
/** How long a device stays known after its last successful login. */
const DEVICE_TOKEN_TTL = '365d';

export class TokenError extends Error {
  constructor(readonly expired: boolean) {
    super(expired ? 'token expired' : 'invalid token');
  }
}

/** A customer's `sub` is its id; an admin's its id or `static:<username>`. */
const SUBJECT = { customer: /^[1-9][0-9]{0,9}$/, admin: /^(?:[1-9][0-9]{0,9}|static:.{1,254})$/s };
const MAX_ID = 2_147_483_647;

function validSubject(ctx: AuthContext, sub: unknown): sub is string {
  if (typeof sub !== 'string' || !SUBJECT[ctx].test(sub)) return false;
  return sub.startsWith('static:') || Number(sub) <= MAX_ID;
}

/** Signs and verifies access tokens; the key is imported once, not on every request. */
export class AccessTokens {
  private readonly key: KeyObject;

  constructor(private readonly settings: TokenSettings) {
    this.key = createSecretKey(Buffer.from(settings.secret, 'utf8'));
  }

  /**
   * A key for another purpose (a test provider's event signatures), derived from the signing
   * secret: shared by every instance, never stored, and useless for signing tokens.
   */
  derivedKey(purpose: string): string {
    return createHmac('sha256', this.settings.secret).update(purpose).digest('hex');
  }

  private audience(ctx: AuthContext): string {
    return `${this.settings.issuer}:${ctx}`;
  }

  /** Apart from the access tokens' audiences, so neither kind is ever taken for the other. */
  private deviceAudience(ctx: AuthContext): string {
    return `${this.settings.issuer}:device:${ctx}`;
  }

  /**
   * A device token: proof that this device logged in to `account` (the normalised login name) of
   * `ctx`; its random `jti` names the device for the failure counter (login-limits.ts).
   */
  async signDevice(ctx: AuthContext, account: string): Promise<string> {
    return new SignJWT({ typ: 'device' })
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setSubject(account)
      .setIssuer(this.settings.issuer)
      .setAudience(this.deviceAudience(ctx))
      .setIssuedAt()
      .setExpirationTime(DEVICE_TOKEN_TTL)
      .setJti(randomUUID())
      .sign(this.key);
  }

  /** The `jti` of a valid device token issued to `account` of `ctx`; undefined for anything else. */
  async deviceId(token: string, ctx: AuthContext, account: string): Promise<string | undefined> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: [ALGORITHM],
        issuer: this.settings.issuer,
        audience: this.deviceAudience(ctx),
        clockTolerance: LEEWAY_SECONDS,
        requiredClaims: ['sub', 'exp', 'jti'],
      });
      return payload.typ === 'device' && payload.sub === account ? payload.jti : undefined;
    } catch {
      return undefined;
    }
  }

  async sign(claims: AccessClaims): Promise<string> {
    const payload: Record<string, unknown> = { ctx: claims.ctx, typ: 'access', sid: claims.sid };
    if (claims.ctx === 'admin') payload.roles = claims.roles ?? [];
    return new SignJWT(payload)
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setSubject(claims.sub)
      .setIssuer(this.settings.issuer)
      .setAudience(this.audience(claims.ctx))
      .setIssuedAt()
      .setExpirationTime(`${this.settings.accessTtlSeconds}s`)
      .setJti(randomUUID())
      .sign(this.key);
  }

  /**
   * Verifies signature, algorithm, issuer, audience, expiry, token type and the shape of the
   * subject and session, whatever the context. Whether the session is still live is the
   * caller's question (sessions.ts).
   */
  async verify(token: string): Promise<{ claims: AccessClaims; exp: number }> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: [ALGORITHM],
        issuer: this.settings.issuer,
        audience: [this.audience('admin'), this.audience('customer')],
        clockTolerance: LEEWAY_SECONDS,
        requiredClaims: ['sub', 'exp', 'iat', 'jti'],
      });
      const ctx = payload.ctx;
      if (payload.typ !== 'access' || (ctx !== 'admin' && ctx !== 'customer')) throw new TokenError(false);
      if (payload.aud !== this.audience(ctx)) throw new TokenError(false);
      if (!validSubject(ctx, payload.sub)) throw new TokenError(false);
      const sid = payload.sid;
      if (typeof sid !== 'number' || !Number.isSafeInteger(sid) || sid < 1) throw new TokenError(false);
      const roles = ctx === 'admin' ? payload.roles : undefined;
      if (ctx === 'admin' && !(Array.isArray(roles) && roles.every((r) => Number.isInteger(r)))) {
        throw new TokenError(false);
      }
      const claims: AccessClaims = { sub: payload.sub, ctx, roles: roles as number[] | undefined, sid };
      return { claims, exp: payload.exp as number };
    } catch (err) {
      if (err instanceof TokenError) throw err;
      throw new TokenError(err instanceof errors.JWTExpired);
    }
  }
}

/** Refresh tokens are opaque random strings; only their hash is stored. */
export function newRefreshToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The stored form of an opaque secret (refresh tokens, e-mailed codes): its SHA-256, in hex. */
export function hashOpaqueToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
