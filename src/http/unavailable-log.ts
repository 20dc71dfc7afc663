import type { FastifyBaseLogger } from 'fastify';

/** How often a running outage writes its count line. */
const SUMMARY_EVERY_MS = 10_000;

/**
 * The log of a database outage: every request fails the same way while the database is away (a
 * busy instance answered 375 of them in 10 s, each logged with its stack), so the first failure
 * is logged in full and the rest are only counted, one line "n more database-unavailable errors in
 * the last t s" every 10 s and when the database answers again (docs/operations.md).
 */
export class UnavailableLog {
  private outageSince = 0;
  private windowSince = 0;
  private counted = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly log: FastifyBaseLogger,
    private readonly summaryEveryMs = SUMMARY_EVERY_MS,
  ) {}

  /** Logs the first failure of an outage with `fields` (its stack); counts the others. */
  failed(log: FastifyBaseLogger, fields: Record<string, unknown>, message: string): void {
    if (this.timer) {
      this.counted++;
      return;
    }
    this.outageSince = Date.now();
    this.windowSince = this.outageSince;
    log.error(fields, message);
    this.timer = setInterval(() => this.tick(), this.summaryEveryMs);
    this.timer.unref();
  }

  /** The database answered: the outage is over, its last count is written. */
  answered(): void {
    if (!this.timer) return;
    this.summarise();
    this.log.info({ outageMs: Date.now() - this.outageSince }, 'database available again');
    this.stop();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.counted = 0;
  }

  private tick(): void {
    // A whole window without a failure ends the outage even when nothing said the database is back.
    if (this.counted === 0) this.stop();
    else this.summarise();
  }

  private summarise(): void {
    const now = Date.now();
    if (this.counted > 0) {
      const seconds = Math.max(1, Math.round((now - this.windowSince) / 1000));
      this.log.error(
        { count: this.counted, seconds },
        `${this.counted} more database-unavailable errors in the last ${seconds} s`,
      );
    }
    this.counted = 0;
    this.windowSince = now;
  }
}
