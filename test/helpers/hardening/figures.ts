import { appendFileSync, readFileSync } from 'node:fs';

// Sizes and figures of the hardening scenarios. `npm test` runs the short form; HARDENING=long
// (npm run test:hardening) the full one. Every scenario prints one `[hardening]` line of
// figures, and appends it as JSON to HARDENING_REPORT when set, for docs/hardening.md.

export const LONG = process.env.HARDENING === 'long';
export const FORM = LONG ? 'long' : 'short';

/** The short or the long size of something. */
export function sized<T>(short: T, long: T): T {
  return LONG ? long : short;
}

/** The fast-check seed of this run: FC_SEED replays one. */
export function seedOf(): number {
  const fromEnv = Number(process.env.FC_SEED);
  return Number.isSafeInteger(fromEnv) && process.env.FC_SEED !== '' ? fromEnv : Date.now() % 2_147_483_647;
}

export type Figure = number | string | boolean;

export function report(scenario: string, figures: Record<string, Figure>): void {
  const text = Object.entries(figures)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
  console.log(`[hardening] ${scenario} (${FORM}): ${text}`);
  const file = process.env.HARDENING_REPORT;
  if (file) {
    const line = {
      scenario,
      form: FORM,
      engine: process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite',
      at: new Date().toISOString(),
      ...figures,
    };
    appendFileSync(file, `${JSON.stringify(line)}\n`);
  }
}

/** Counts by key, printed as `a:3,b:1`. */
export class Tally {
  readonly counts = new Map<string, number>();
  add(key: string | number, n = 1): void {
    const k = String(key);
    this.counts.set(k, (this.counts.get(k) ?? 0) + n);
  }
  get(key: string | number): number {
    return this.counts.get(String(key)) ?? 0;
  }
  get total(): number {
    let n = 0;
    for (const v of this.counts.values()) n += v;
    return n;
  }
  toString(): string {
    return [...this.counts.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => `${k}:${v}`)
      .join(',');
  }
}

/** RSS of a process in MB, from /proc (Linux). */
export function rssMb(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Math.round(Number(match[1]) / 1024) : 0;
  } catch {
    return 0;
  }
}
