import type { CpuTimes } from '../cpu.ts';

export type Engine = 'pglite' | 'postgres';

export interface BenchContext {
  engine: Engine;
  baseUrl: string;
  /** The benchmark database, for setups that seed directly. */
  databaseUrl?: string;
  dataDir?: string;
  /** A Superuser's access token, from the service's login. */
  adminToken(): Promise<string>;
  /** The access token of a newly registered customer. */
  customerToken(): Promise<string>;
  /**
   * CPU time used so far by the service process and (PostgreSQL) by its database backends, in ms:
   * on a shared machine, CPU per request compares two runs better than requests per second.
   */
  cpuMs(): Promise<CpuTimes>;
  /** The service process's resident memory now, in MB. */
  serverRssMb(): number;
  /** What setups leave for requests (tokens, ids). */
  state: Record<string, string>;
}

export interface BenchRequest {
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface Scenario {
  /** Scenarios of a group run together with `npm run bench -- --only <group>`. */
  group: string;
  name: string;
  engines?: Engine[];
  connections?: number;
  /** The lowest acceptable ratio to R (one for all engines, or per engine); below it the run exits non-zero. */
  target?: number | Partial<Record<Engine, number>>;
  /**
   * A target relative to another scenario (same seed): this one's CPU per request (service and
   * database) at most (1 + share) × that one's (e.g. a Greek list within 10 % of the default one):
   * the median of three groups of alternating slices measured after this one's rounds
   * (bench/alternating.ts).
   */
  within?: { of: string; share: number };
  /** Statuses that count as expected (e.g. documented conflicts). */
  acceptStatus?: number[];
  /** Runs with the server up, after the seeds. */
  setup?(ctx: BenchContext): Promise<void>;
  /**
   * Writes straight into the database, which PGlite allows only with the server stopped. Every
   * scenario that needs the data names the seed, so `--only` on any one of them measures the same
   * data; a seed shared by several scenarios runs once.
   */
  seed?(ctx: BenchContext): Promise<void>;
  request(ctx: BenchContext): BenchRequest;
  /** Each request has a key never asked before (its Accept-Language): every read misses the answer cache. */
  distinctUrls?: boolean;
  /** Runs beside each measurement of the service (e.g. a write every second); the function it answers stops it. */
  background?(ctx: BenchContext): Promise<() => Promise<void>>;
}
