import { createHash, randomBytes } from 'node:crypto';
import type { Caller } from '../../http/access.ts';
import { AppError } from '../../http/errors.ts';

// Guest cart tokens: 32 random bytes (256 bits) in base64url, 43 characters. Only the sha256 is stored,
// so a leaked database does not hand out live carts. A token the service did not mint (wrong shape)
// is treated like an unknown one: it never finds a cart.

const TOKEN_BYTES = 32;
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export function newCartToken(): string {
  return randomBytes(TOKEN_BYTES).toString('base64url');
}

export function hashCartToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The token's hash when it has the shape of one we mint, else null (an unknown token). */
export function cartTokenHash(token: string | undefined): string | null {
  if (token === undefined || !TOKEN_SHAPE.test(token)) return null;
  return hashCartToken(token);
}

/** Whose cart a request addresses: a customer's by owner, a guest's by the hash of the sent token. */
export type CartOwner =
  | { kind: 'customer'; customerId: number }
  | { kind: 'guest'; tokenHash: string | null };

/** Admins have no cart: a valid admin token on a cart route is a 403, never a guest. */
export function cartOwnerOf(caller: Caller, token: string | undefined): CartOwner {
  if (caller.kind === 'admin') throw new AppError('FORBIDDEN', 'the cart belongs to customers and guests');
  if (caller.kind === 'customer') return { kind: 'customer', customerId: caller.customerId };
  return { kind: 'guest', tokenHash: cartTokenHash(token) };
}
