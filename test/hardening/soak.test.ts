import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { LONG, report, sized } from '../helpers/hardening/figures.ts';
import { ROOT, uniqueEmail } from '../helpers/hardening/fixtures.ts';
import { type Cluster, findPostgresBin, startCluster } from '../helpers/hardening/postgres.ts';
import { adminLogin, http, type ServerProcess, startServer } from '../helpers/hardening/server.ts';
import { type LoadShop, runStorefrontLoad } from '../helpers/hardening/storefront-load.ts';

// Load and soak: autocannon on loopback against the server process on PostgreSQL (a throw-away
// database), a mixed storefront load with idempotent retries. Then the books must balance:
// stock, points, coupon uses and orders, and memory must not have crept up.
// Long form: 60 s × 50 connections. Short form: 5 s, and only on PostgreSQL (TEST_DATABASE_URL).

/** HARDENING_SOAK_SECONDS lengthens the soak (e.g. to watch memory over many minutes). */
const DURATION = Number(process.env.HARDENING_SOAK_SECONDS) || sized(5, 60);
const CONNECTIONS = sized(20, 50);
const PRODUCTS = 20;
/** Below the demand of the run, so the last units are fought over and OUT_OF_STOCK is met. */
const STOCK = sized(40, 500);
const POINTS = 20_000;
/** Enough for every connection that shops as a customer (two in five) to have one of its own. */
const CUSTOMERS = Math.ceil(CONNECTIONS * 0.4) + 2;
const COUPON_LIMIT = 300;
const ADMIN_URL = process.env.HARDENING_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
const SKIP =
  !LONG && !process.env.TEST_DATABASE_URL ? 'short form runs on PostgreSQL only (TEST_DATABASE_URL)' : false;

async function reachable(url: string): Promise<boolean> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await c.connect();
    await c.end();
    return true;
  } catch {
    return false;
  }
}

async function admin(url: string, sqlText: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(sqlText);
  } finally {
    await c.end();
  }
}

describe('load and soak on PostgreSQL', { skip: SKIP }, () => {
  let cluster: Cluster | undefined;
  let adminUrl: string;
  let dbUrl: string;
  const dbName = `shop_soak_${process.pid}`;
  let server: ServerProcess | undefined;
  let shop: LoadShop;
  let client: pg.Client;

  before(async () => {
    const fallback = 'postgres://postgres@127.0.0.1:5432/postgres';
    if (ADMIN_URL) adminUrl = ADMIN_URL;
    else if (await reachable(fallback)) adminUrl = fallback;
    else {
      const bin = findPostgresBin();
      if (!bin) throw new Error('no PostgreSQL: set HARDENING_DATABASE_URL or TEST_DATABASE_URL');
      cluster = await startCluster(bin);
      adminUrl = cluster.adminUrl;
    }
    await admin(adminUrl, `create database ${dbName}`);
    const url = new URL(adminUrl);
    url.pathname = `/${dbName}`;
    dbUrl = url.toString();
    server = await startServer({
      databaseUrl: dbUrl,
      env: { DATABASE_POOL_SIZE: '20' },
      config: { staticUsers: [ROOT] },
    });
    client = new pg.Client({ connectionString: dbUrl });
    await client.connect();

    const root = await adminLogin(server.base, ROOT);
    const productIds: number[] = [];
    for (let i = 0; i < PRODUCTS; i++) {
      const res = await http(server.base, 'POST', '/rest/product/product', {
        token: root,
        body: { name: `Soak ${i}`, sku: `SOAK-${i}`, price: 5 + i, stockQty: STOCK, weightKg: 0.3 },
      });
      assert.equal(res.status, 201, res.text);
      productIds.push((res.json as { data: { id: number } }).data.id);
    }
    const transport = await http(server.base, 'POST', '/rest/checkout/transport', {
      token: root,
      body: { name: 'Soak courier', price: 4.9, freeShippingThreshold: 100 },
    });
    const coupon = await http(server.base, 'POST', '/rest/checkout/coupon', {
      token: root,
      body: { code: 'SOAK10', type: 'percent', value: 10, usageLimit: COUPON_LIMIT },
    });
    assert.equal(coupon.status, 201, coupon.text);
    const customerTokens: string[] = [];
    for (let i = 0; i < CUSTOMERS; i++) {
      const reg = await http(server.base, 'POST', '/rest/auth/customer/register', {
        body: { email: uniqueEmail('soak'), password: 'soak-password', firstName: 'S', lastName: `C${i}` },
      });
      assert.equal(reg.status, 201, reg.text);
      const token = (reg.json as { access_token: string }).access_token;
      const me = await http(server.base, 'GET', '/rest/auth/customer/me', { token });
      const customerId = Number((me.json as { data: { id: number } }).data.id);
      const points = await http(server.base, 'POST', '/rest/loyalty/adjustment', {
        token: root,
        body: { customerId, delta: POINTS, note: 'soak' },
      });
      assert.equal(points.status < 300, true, points.text);
      customerTokens.push(token);
    }
    shop = {
      productIds,
      transportId: (transport.json as { data: { id: number } }).data.id,
      couponCode: 'SOAK10',
      customerTokens,
    };
  });

  after(async () => {
    await client?.end().catch(() => {});
    await server?.stop();
    if (adminUrl) await admin(adminUrl, `drop database if exists ${dbName} with (force)`).catch(() => {});
    cluster?.destroy();
  });

  test('when shoppers browse, fill carts and check out for a while, then only documented refusals, the books balance and memory holds', async () => {
    const live = server!;
    const warm = await runStorefrontLoad(live.base, shop, {
      connections: CONNECTIONS,
      durationSeconds: sized(2, 10),
    });
    // RSS once a second through the run: a single reading mostly measures where the garbage
    // collector happens to be; a leak shows as the last quarter's level above the first's.
    const rss: number[] = [];
    const sampler = setInterval(() => rss.push(live.rss()), 1_000);
    const run = await runStorefrontLoad(live.base, shop, {
      connections: CONNECTIONS,
      durationSeconds: DURATION,
    });
    clearInterval(sampler);
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
    const stretch = Math.max(1, Math.floor(rss.length / 4));
    // The level the heap reached early in the run (after the warm-up) against where it sits at
    // the end: the garbage collector lets RSS swing by tens of MB either way within seconds.
    const rssWarm = Math.max(...rss.slice(0, stretch));
    const rssEnd = median(rss.slice(-stretch));
    const orderIds = new Set([...warm.orderIds, ...run.orderIds]);

    const q = async <T>(text: string) => (await client.query(text)).rows as T[];
    const stock = await q<{ id: number; stock: number; sold: string }>(`
      select p.id, p.stock_qty as stock, coalesce((select sum(l.qty) from sales_order_line l
        join sales_order o on o.id = l.order_id where l.product_id = p.id and o.status <> 'cancelled'), 0) as sold
      from product p`);
    const badStock = stock.filter((r) => r.stock < 0 || r.stock + Number(r.sold) !== STOCK);
    const points = await q<{ id: number; balance: number; ledger: string }>(`
      select c.id, c.loyalty_points as balance, coalesce((select sum(delta) from loyalty_ledger l where l.customer_id = c.id), 0) as ledger
      from customer c`);
    const badPoints = points.filter((r) => r.balance !== Number(r.ledger) || r.balance < 0);
    const [coupon] = await q<{ used: number; redemptions: string; orders: string }>(`
      select c.used_count as used, (select count(*) from coupon_redemption r where r.coupon_id = c.id) as redemptions,
        (select count(*) from sales_order o where o.coupon_id = c.id and o.status <> 'cancelled') as orders
      from coupon c where c.code = 'SOAK10'`);
    const [orders] = await q<{ n: string }>('select count(*) as n from sales_order');
    const pointsSpent = await q<{ n: string }>(
      "select count(*) as n from loyalty_ledger where reason = 'redeemed'",
    );
    const sold = stock.reduce((n, r) => n + Number(r.sold), 0);

    report('soak', {
      engine: 'postgres',
      seconds: DURATION,
      connections: CONNECTIONS,
      requests: run.requests,
      rps: run.rps,
      p50ms: run.p50,
      p99ms: run.p99,
      errors: run.errors,
      unexpected: run.unexpected.total,
      answers: run.answers.toString(),
      replayMismatches: `${warm.replayMismatches}${run.replayMismatches}` || 'none',
      orders: Number(orders.n),
      ordersAnswered201: orderIds.size,
      unitsSold: sold,
      couponUses: `${coupon.used}/${coupon.redemptions}/${coupon.orders}`,
      redemptions: Number(pointsSpent[0].n),
      badStock: badStock.length,
      badPoints: badPoints.length,
      rssFirstQuarterMaxMb: rssWarm,
      rssLastQuarterMedianMb: rssEnd,
      rssRatio: (rssEnd / rssWarm).toFixed(2),
      rssMaxMb: Math.max(...rss),
      rssEvery10s: rss.filter((_, i) => i % 10 === 9).join('/'),
    });
    assert.equal(run.errors, 0, 'connection errors or timeouts');
    // The server logs at level error: its lines name the cause of a 500.
    const serverErrors = () => server?.output().slice(-4000) ?? '';
    assert.equal(run.unexpected.total, 0, `non-2xx beyond documented conflicts: ${run.unexpected}\n${serverErrors()}`);
    assert.equal(
      warm.unexpected.total,
      0,
      `non-2xx beyond documented conflicts (warm-up): ${warm.unexpected}`,
    );
    assert.equal(
      warm.replayMismatches.total + run.replayMismatches.total,
      0,
      `idempotent retries answered differently: ${warm.replayMismatches} ${run.replayMismatches}`,
    );
    assert.deepEqual(badStock, [], 'stock ≥ 0 and stock + sold = initial');
    assert.deepEqual(badPoints, [], 'points ledger sums to balances');
    assert.equal(coupon.used, Number(coupon.redemptions), 'coupon uses = redemptions');
    assert.equal(Number(coupon.redemptions), Number(coupon.orders), 'redemptions = orders with the coupon');
    assert.ok(coupon.used <= COUPON_LIMIT, 'usage limit held');
    assert.equal(Number(orders.n), orderIds.size, 'orders = successful place-order answers');
    assert.ok(orderIds.size > 0, 'orders were placed');
    assert.ok(rssEnd <= rssWarm * 1.2, `RSS ${rssWarm} → ${rssEnd} MB (samples ${rss.join(',')})`);
  });
});
