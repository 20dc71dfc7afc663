import { Type } from '@sinclair/typebox';
import { AppError } from '../../http/errors.ts';

/**
 * Characters that show nothing or steer the display: C0 and C1 controls, the soft hyphen, the
 * Arabic letter mark, the Mongolian vowel separator, zero-width spaces and joiners, direction
 * marks, embeddings, overrides and isolates, word joiner and invisible operators, the byte-order
 * mark. In an address they make a second account that reads like the first one.
 */
const INVISIBLE =
  '\\u0000-\\u001F\\u007F-\\u009F\\u00AD\\u061C\\u180E\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2064\\u2066-\\u206F\\uFEFF';
/** The blanks allowed around an address (trimmed away): the visible spaces, never a tab or newline. */
const BLANK = '[ \\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000]*';
const PART = `[^\\s@${INVISIBLE}]+`;
const EMAIL_PATTERN = `^${BLANK}${PART}@${PART}\\.${PART}${BLANK}$`;
const MAX_LENGTH = 254;
const SHAPE = new RegExp(EMAIL_PATTERN);

/** An e-mail address as clients send it: surrounding blanks allowed, no invisible character. */
export const Email = Type.String({
  minLength: 3,
  maxLength: MAX_LENGTH,
  pattern: EMAIL_PATTERN,
  description:
    'E-mail address; compared case-insensitively after Unicode NFKC normalisation; invisible and control characters are refused',
});

/**
 * Login names and e-mail addresses are compared in one form: NFKC (full-width and other
 * compatibility forms become the plain letters they look like), trimmed, lower-cased.
 */
export function normaliseLogin(value: string): string {
  return value.normalize('NFKC').trim().toLowerCase();
}

/**
 * The form of an address that is stored. The schema has refused invisible characters already;
 * NFKC can still turn a look-alike into a second `@` or lengthen the address, so the result is
 * checked again.
 */
export function canonicalEmail(value: string, field = 'email'): string {
  const email = normaliseLogin(value);
  if (email.length > MAX_LENGTH || !SHAPE.test(email)) {
    throw new AppError('VALIDATION_FAILED', `${field} is not a valid e-mail address`, [
      { field, message: 'is not a valid e-mail address' },
    ]);
  }
  return email;
}
