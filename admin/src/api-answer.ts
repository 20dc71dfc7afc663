// What an answer of the service becomes in the back office: its body, or an ApiError that
// react-admin understands (it reads `status` and shows `message`).

/** An answer of the error envelope; react-admin reads `status` and shows `message`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** An openapi-fetch result: the body on success, the error envelope otherwise. */
export interface CallResult<T> {
  data?: T;
  error?: { error?: { code?: string; message?: string } };
  response: Response;
}

/** The body of a successful answer (undefined when it has none), or the ApiError of the answer. */
export function bodyOf<T>(result: CallResult<T>): T | undefined {
  if (result.response.ok) return result.data;
  const error = result.error?.error;
  throw new ApiError(
    result.response.status,
    error?.code ?? 'INTERNAL',
    error?.message ?? result.response.statusText,
    result.error,
  );
}

/**
 * The `data` of a successful envelope, or the ApiError of the answer. (A path that can also answer
 * CSV types its body as text too; asked without Accept: text/csv, it answers the envelope.)
 */
export function dataOf<T>(result: CallResult<{ data: T } | string>): T {
  const body = bodyOf(result);
  if (body === undefined || typeof body === 'string') {
    throw new ApiError(result.response.status, 'INTERNAL', 'The answer was not an envelope', body ?? null);
  }
  return body.data;
}

/** What to show for a failed call. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
