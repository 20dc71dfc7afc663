import { createHash, createSecretKey, randomBytes, randomUUID, type KeyObject } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';

export type AuthContext = 'admin' | 'customer';

export interface AccessClaims {
  sub: string;
  ctx: AuthContext;
  roles?: number[];
}

export interface TokenSettings {
  secret: string;
  issuer: string;
  accessTtlSeconds: number;
}

const ALGORITHM = 'HS256';
/** Clock skew tolerated between instances. */
const LEEWAY_SECONDS = 5;

export class TokenError extends Error {
  constructor(readonly expired: boolean) {
    super(expired ? 'token expired' : 'invalid token');
  }
}

/** Verified tokens kept so a client's repeated requests skip the signature check. */
const VERIFIED_CACHE_SIZE = 10_000;

/** Signs and verifies access tokens; the key is imported once, not on every request. */
export class AccessTokens {
  private readonly key: KeyObject;
  /**
   * Verification is deterministic for a given token and key, so a verified token's claims can be
   * reused until it expires; this removes most of the per-request cost of a bearer token.
   */
  private readonly verified = new Map<string, { claims: AccessClaims; exp: number }>();

  constructor(private readonly settings: TokenSettings) {
    this.key = createSecretKey(Buffer.from(settings.secret, 'utf8'));
  }

  private audience(ctx: AuthContext): string {
    return `${this.settings.issuer}:${ctx}`;
  }

  async sign(claims: AccessClaims): Promise<string> {
    const payload: Record<string, unknown> = { ctx: claims.ctx, typ: 'access' };
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

  /** Verifies signature, algorithm, issuer, audience, expiry and token type, whatever the context. */
  async verify(token: string): Promise<AccessClaims> {
    const cached = this.verified.get(token);
    if (cached) {
      if (cached.exp + LEEWAY_SECONDS > Date.now() / 1000) return cached.claims;
      this.verified.delete(token);
      throw new TokenError(true);
    }
    const { claims, exp } = await this.verifySignature(token);
    if (this.verified.size >= VERIFIED_CACHE_SIZE) {
      this.verified.delete(this.verified.keys().next().value as string);
    }
    this.verified.set(token, { claims, exp });
    return claims;
  }

  private async verifySignature(token: string): Promise<{ claims: AccessClaims; exp: number }> {
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
      const roles = ctx === 'admin' ? payload.roles : undefined;
      if (ctx === 'admin' && !(Array.isArray(roles) && roles.every((r) => Number.isInteger(r)))) {
        throw new TokenError(false);
      }
      const claims: AccessClaims = { sub: String(payload.sub), ctx, roles: roles as number[] | undefined };
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

export function hashRefreshToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
