/** CPU time used so far, in ms, by the service process and (PostgreSQL) by its database backends. */
export interface CpuTimes {
  server: number;
  database?: number;
}

/**
 * CPU µs per unit of work (a request, an order) between two readings: on a shared machine this
 * compares two runs better than requests per second, since R and the neighbours move too.
 */
export function cpuPer(before: CpuTimes, after: CpuTimes, count: number): CpuTimes {
  const per = (ms: number) => Math.round((ms * 1000) / Math.max(1, count));
  return {
    server: per(after.server - before.server),
    database:
      after.database === undefined || before.database === undefined
        ? undefined
        : per(after.database - before.database),
  };
}
