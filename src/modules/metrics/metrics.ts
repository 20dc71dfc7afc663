import { sql } from 'drizzle-orm';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { type Database, queryRows } from '../../db/client.ts';

/** What the collectors read from the running app (passed in, so this file knows no plugin). */
export interface MetricSources {
  database: Database;
  /** 1 while the rate-limit store answers: Redis when configured, else the in-memory store (always). */
  rateLimitStoreReachable(): boolean;
  /** The answer cache's counts, when it is on (docs/performance.md, "The shared cache"). */
  answerCache(): AnswerCacheCounts | undefined;
}

export interface AnswerCacheCounts {
  hits: number;
  misses: number;
  entries: number;
  bytes: number;
}

/** Seconds: most answers take milliseconds; the top buckets catch a sick database (5-20 s timeouts). */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * The service's Prometheus metrics, one registry per app (docs/operations.md). Request durations
 * are observed as answers leave; everything else is read when scraped. Queue depth and delivery
 * outcomes are read from the shared database, so they are the same on every instance.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly durations: Histogram<'method' | 'route' | 'status'>;

  constructor(sources: MetricSources) {
    const registers = [this.registry];
    // process_*, nodejs_* (heap, GC, handles) and nodejs_eventloop_lag_* among them.
    collectDefaultMetrics({ register: this.registry });
    this.durations = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time to answer a request, by method, route template and status',
      labelNames: ['method', 'route', 'status'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    poolGauges(sources.database, registers);
    new Gauge({
      name: 'shop_rate_limit_store_reachable',
      help: '1 while the rate-limit store answers; 0 while Redis is unreachable and requests are not limited',
      registers,
      collect() {
        this.set(sources.rateLimitStoreReachable() ? 1 : 0);
      },
    });
    databaseGauges(sources.database, registers);
    cacheGauges(sources, registers);
  }

  /** `route` is the template (`/rest/product/product/:id`), never the URL: a bounded set of labels. */
  observe(method: string, route: string | undefined, status: number, seconds: number): void {
    this.durations.observe({ method, route: route ?? 'unmatched', status: String(status) }, seconds);
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}

type PoolStats = ReturnType<NonNullable<Database['poolStats']>>;

function poolGauges(database: Database, registers: Registry[]): void {
  const stats = database.poolStats;
  if (!stats) return;
  const gauge = (name: string, help: string, read: (s: PoolStats) => number) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        this.set(read(stats()));
      },
    });
  gauge('shop_db_pool_connections', 'PostgreSQL connections open in the pool', (s) => s.total);
  gauge('shop_db_pool_idle', 'PostgreSQL connections idle in the pool', (s) => s.idle);
  gauge('shop_db_pool_waiting', 'Queries waiting for a free connection', (s) => s.waiting);
}

/** Queue depth per queue and deliveries per outcome, read from the database at each scrape. */
function databaseGauges(database: Database, registers: Registry[]): void {
  new Gauge({
    name: 'shop_job_queue_jobs',
    help: 'Jobs of the job queue (pg-boss), by queue and state: queued (due or waiting to retry) or active',
    labelNames: ['queue', 'state'],
    registers,
    async collect() {
      this.reset();
      for (const row of await readOrNothing(database, queueDepth)) {
        this.set({ queue: row.name, state: row.state }, row.jobs);
      }
    },
  });
  new Gauge({
    name: 'shop_deliveries',
    help: 'Webhook deliveries and e-mails by outcome: pending, sending, failed (waiting for a retry), delivered, dead',
    labelNames: ['kind', 'outcome'],
    registers,
    async collect() {
      this.reset();
      for (const row of await readOrNothing(database, deliveryOutcomes)) {
        this.set({ kind: row.kind, outcome: row.outcome }, row.n);
      }
    },
  });
}

/** A scrape during a database outage still answers the process's own metrics. */
async function readOrNothing<T>(
  database: Database,
  read: (database: Database) => Promise<T[]>,
): Promise<T[]> {
  try {
    return await read(database);
  } catch {
    return [];
  }
}

function queueDepth(database: Database) {
  return queryRows<{ name: string; state: string; jobs: number }>(
    database.db,
    sql`select name, case when state = 'active' then 'active' else 'queued' end as state, count(*)::int as jobs
        from pgboss.job where state in ('created', 'retry', 'active')
        group by 1, 2`,
  );
}

function deliveryOutcomes(database: Database) {
  const outcome = (delivered: string) =>
    sql.raw(
      `case when status in (${delivered}) then 'delivered' when status in ('dead', 'sending') then status
          when attempts > 0 then 'failed' else 'pending' end`,
    );
  return queryRows<{ kind: string; outcome: string; n: number }>(
    database.db,
    sql`select 'webhook' as kind, ${outcome("'succeeded'")} as outcome, count(*)::int as n
          from webhook_delivery group by 2
        union all
        select 'mail', ${outcome("'sent', 'logged'")}, count(*)::int from mail_message group by 2`,
  );
}

function cacheGauges(sources: MetricSources, registers: Registry[]): void {
  const gauge = (name: string, help: string, read: (c: AnswerCacheCounts) => number) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        const counts = sources.answerCache();
        if (counts) this.set(read(counts));
      },
    });
  gauge('shop_cache_hits_total', 'Storefront reads answered from the answer cache', (c) => c.hits);
  gauge('shop_cache_misses_total', 'Cacheable storefront reads the cache could not answer', (c) => c.misses);
  gauge('shop_cache_entries', 'Answers kept in the answer cache', (c) => c.entries);
  gauge('shop_cache_bytes', 'Bytes the kept answers hold (bounded by cache.maxMegabytes)', (c) => c.bytes);
}
