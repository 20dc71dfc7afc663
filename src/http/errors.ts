import { type Static, Type } from '@sinclair/typebox';

/** A code a client can receive: the status it travels with and when it is sent. */
export interface ErrorCodeDefinition {
  readonly status: number;
  readonly meaning: string;
}
export type ErrorCatalog = Readonly<Record<string, ErrorCodeDefinition>>;

/**
 * The codes of the generic layers (the error envelope of docs/conventions.md, less those about one feature). A feature
 * module declares its own codes in its `*.api.ts` (status and meaning) and adds their names to
 * `FeatureErrorCodes`; the app hands every module's catalog to `useErrorCodes`.
 */
export const GENERIC_ERRORS = {
  VALIDATION_FAILED: {
    status: 400,
    meaning:
      'Malformed JSON, a wrong type, a missing field or a value out of range (details name each field).',
  },
  UNAUTHENTICATED: { status: 401, meaning: 'No token where one is required, or an invalid or tampered one.' },
  TOKEN_EXPIRED: { status: 401, meaning: 'The access token has expired: refresh it.' },
  FORBIDDEN: { status: 403, meaning: 'A token of the other context, or an admin lacking the role.' },
  NOT_FOUND: { status: 404, meaning: 'Unknown entity or id, or an object the caller may not see.' },
  METHOD_NOT_ALLOWED: { status: 405, meaning: 'The path exists but not with this method (see Allow).' },
  REQUEST_TIMEOUT: { status: 408, meaning: 'The request was not received in time.' },
  CONFLICT: { status: 409, meaning: 'The write collides with the current state (a unique value taken).' },
  PAYLOAD_TOO_LARGE: { status: 413, meaning: 'The body is over the size limit.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, meaning: 'The body is not JSON.' },
  UNPROCESSABLE: { status: 422, meaning: 'Well-formed, but a business rule refuses it.' },
  LIMIT_REACHED: { status: 422, meaning: 'A configured cap (lines, units, addresses, entries) is reached.' },
  RATE_LIMITED: { status: 429, meaning: 'Too many requests: wait Retry-After seconds.' },
  HEADERS_TOO_LARGE: { status: 431, meaning: 'The request headers are too large.' },
  INTERNAL: { status: 500, meaning: 'An unexpected fault, logged with the request id.' },
  SERVICE_UNAVAILABLE: { status: 503, meaning: 'The database is unreachable or the service is stopping.' },
} as const satisfies ErrorCatalog;

/**
 * The names of the codes feature modules declare, merged in by each module:
 * `declare module '../../http/errors.ts' { interface FeatureErrorCodes extends CartErrors {} }`.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging in the modules
export interface FeatureErrorCodes {}

export type ErrorCode = keyof typeof GENERIC_ERRORS | keyof FeatureErrorCodes;

let known = new Map<string, ErrorCodeDefinition>(Object.entries(GENERIC_ERRORS));

/**
 * Adds the feature modules' codes to the ones the service answers (buildApp, once per app; the
 * same declaration again is harmless, a code declared twice with another status is a mistake).
 */
export function useErrorCodes(catalogs: readonly ErrorCatalog[]): void {
  for (const catalog of catalogs) {
    for (const [code, definition] of Object.entries(catalog)) {
      const earlier = known.get(code);
      if (earlier && earlier.status !== definition.status) {
        throw new Error(`error code ${code} is declared with ${earlier.status} and ${definition.status}`);
      }
      known.set(code, definition);
    }
  }
  // By status, so the document lists 400s, then 401s, …; generic codes first within one.
  known = new Map([...known].sort(([, a], [, b]) => a.status - b.status));
}

/** Every code the service answers, by status. */
export function errorCodes(): ReadonlyMap<string, ErrorCodeDefinition> {
  return known;
}

export interface ErrorDetail {
  field: string;
  message: string;
  /** A stock refusal names the variant and how many units are on hand. */
  variantId?: number;
  availableQty?: number;
}

/** The one error type of the service: a stable code, its status, a message safe to show. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
  ) {
    super(message);
  }

  /** From the code's declaration; an undeclared code is a fault of the service. */
  get status(): number {
    return known.get(this.code)?.status ?? 500;
  }
}

/** The error envelope, listing every code declared when it is built (after useErrorCodes). */
export function errorBodySchema() {
  return Type.Object(
    {
      success: Type.Literal(false),
      error: Type.Object({
        code: Type.Union(
          [...known.keys()].map((c) => Type.Literal(c)),
          { description: 'Stable machine-readable code' },
        ),
        message: Type.String(),
        details: Type.Optional(
          Type.Array(
            Type.Object({
              field: Type.String(),
              message: Type.String(),
              variantId: Type.Optional(
                Type.Integer({ description: 'OUT_OF_STOCK: the variant that is short' }),
              ),
              availableQty: Type.Optional(Type.Integer({ description: 'OUT_OF_STOCK: units on hand' })),
            }),
          ),
        ),
      }),
    },
    { $id: 'ErrorBody', description: 'Error envelope' },
  );
}
export type ErrorBodyType = Omit<Static<ReturnType<typeof errorBodySchema>>, 'error'> & {
  error: { code: ErrorCode; message: string; details?: ErrorDetail[] };
};

export function errorBody(code: ErrorCode, message: string, details?: ErrorDetail[]): ErrorBodyType {
  return { success: false, error: details?.length ? { code, message, details } : { code, message } };
}
