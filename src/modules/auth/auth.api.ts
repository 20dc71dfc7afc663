import type { ErrorCatalog } from '../../http/errors.ts';
import type { ApiTag } from '../../http/openapi.ts';

// What authentication declares to the generic layers: its tag and its error codes.

export const authTag: ApiTag = {
  name: 'auth',
  group: 'Storefront',
  description: 'Log in, refresh and log out (customers and admins); customer registration and password.',
};

export const authErrors = {
  TOKEN_INVALID: {
    status: 400,
    meaning: 'An e-mailed code (reset, verification) is used, expired or unknown.',
  },
  INVALID_CREDENTIALS: {
    status: 401,
    meaning: 'Wrong e-mail or password (the same answer for an unknown e-mail).',
  },
  INVALID_REFRESH_TOKEN: { status: 401, meaning: 'The refresh token is invalid or revoked.' },
} as const satisfies ErrorCatalog;

type AuthErrors = typeof authErrors;
declare module '../../http/errors.ts' {
  interface FeatureErrorCodes extends AuthErrors {}
}
