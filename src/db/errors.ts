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
