import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { type Algorithm, hash, verify } from '@node-rs/argon2';

/**
 * argon2id with the OWASP minimum parameters (19 MiB, 2 passes, 1 lane). The encoded
 * PHC string (`$argon2id$v=19$m=19456,t=2,p=1$…`) records them, so changing them later
 * keeps old hashes verifiable.
 */
const ARGON2ID = 2 as Algorithm;
export const PASSWORD_HASH_OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export function hashPassword(plain: string): Promise<string> {
  return hash(plain, PASSWORD_HASH_OPTIONS);
}

/** False for a wrong password and for a hash that cannot be parsed; never throws on bad input. */
export async function verifyPassword(encoded: string, plain: string): Promise<boolean> {
  try {
    return await verify(encoded, plain);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Spends the same work as a real verification when there is no account to check, so an
 * unknown e-mail cannot be told apart from a wrong password by the answer time.
 */
export async function verifyDummyPassword(plain: string): Promise<false> {
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
  await verifyPassword(await dummyHash, plain);
  return false;
}

/** Compares a plain-text configured password in constant time (equal-length digests). */
export function plainPasswordMatches(expected: string, given: string): boolean {
  const a = createHash('sha256').update(expected).digest();
  const b = createHash('sha256').update(given).digest();
  return timingSafeEqual(a, b);
}
