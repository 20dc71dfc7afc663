// What a failed statement was, whichever layer wrapped it: drizzle wraps the driver's error in a
// `cause`, so every question about a database error walks the same chain.

export interface ErrorLike {
  code?: unknown;
  message?: unknown;
  detail?: unknown;
  cause?: unknown;
}

/** An error and the errors it wraps, outermost first (a bounded walk: causes can loop). */
export function causeChain(error: unknown): ErrorLike[] {
  const chain: ErrorLike[] = [];
  for (let e = error; e && typeof e === 'object' && chain.length < 5; e = (e as ErrorLike).cause) {
    chain.push(e as ErrorLike);
  }
  return chain;
}

/** The PostgreSQL error in the chain (the one with a five-character SQLSTATE), when there is one. */
export function postgresError(error: unknown): { code: string; detail?: string } | undefined {
  const found = causeChain(error).find(({ code }) => typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code));
  return found as { code: string; detail?: string } | undefined;
}

export function isUniqueViolation(error: unknown): boolean {
  return postgresError(error)?.code === '23505';
}

export function isForeignKeyViolation(error: unknown): boolean {
  return postgresError(error)?.code === '23503';
}

/**
 * A transaction PostgreSQL rolled back to break a deadlock (40P01) or a serialization conflict
 * (40001): nothing it wrote is kept, so running it again is safe.
 */
export function isTransactionConflict(error: unknown): boolean {
  const code = postgresError(error)?.code;
  return code === '40P01' || code === '40001';
}

/** Runs `work` (a whole transaction) again when PostgreSQL rolled it back as a conflict, up to `attempts` times. */
export async function retryingConflicts<T>(work: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (err) {
      if (attempt >= attempts || !isTransactionConflict(err)) throw err;
    }
  }
}
