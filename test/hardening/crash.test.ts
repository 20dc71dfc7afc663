import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { report, seedOf, sized } from '../helpers/hardening/figures.ts';
import { ROOT } from '../helpers/hardening/fixtures.ts';
import { adminLogin, http, type ServerProcess, startServer, tempDir } from '../helpers/hardening/server.ts';
import {
  allOrders,
  guestOrder,
  type OrderAttempt,
  seedShop,
  type Shop,
  soldOf,
  stockOf,
} from '../helpers/hardening/shop.ts';

// Crash and restart on the embedded database: a burst of place-orders, SIGKILL at a random
// moment, restart on the same data dir. Every acknowledged order must be there, and the stock
// must add up. (A second process on the same data dir is refused: test/platform/process.test.ts.)

const ITERATIONS = sized(1, 5);
const WORKERS = 8;
const STOCK = 100_000;
const SEED = seedOf();

/** A small deterministic generator, so a failing kill point replays with FC_SEED. */
function random(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4_294_967_296;
  };
}

describe(`crash and restart on PGlite (FC_SEED=${SEED})`, () => {
  const dir = tempDir('shop-hardening-crash-');
  const dataDir = join(dir.path, 'db');
  const config = { staticUsers: [ROOT], http: { shutdownGraceMs: 8_000 } };
  let server: ServerProcess | undefined;
  let admin: string;
  let shop: Shop;

  after(async () => {
    await server?.stop(2_000);
    dir.remove();
  });

  test('when the server is killed during a burst of orders, then every acknowledged order survives and the stock adds up', async () => {
    const rand = random(SEED);
    const acknowledged: OrderAttempt[] = [];
    const rows: string[] = [];
    server = await startServer({ dataDir, config });
    admin = await adminLogin(server.base, ROOT);
    shop = await seedShop(server.base, admin, STOCK);
    for (let iteration = 1; iteration <= ITERATIONS; iteration++) {
      const current = server;
      const killAfterMs = 300 + Math.floor(rand() * 1_500);
      const attempts: OrderAttempt[] = [];
      let stop = false;
      const worker = async (w: number) => {
        for (let i = 0; !stop; i++) {
          const attempt = await guestOrder(current.base, shop, 1 + ((w + i) % 3));
          attempts.push(attempt);
          if (attempt.status === 0) break;
        }
      };
      const burst = Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));
      await sleep(killAfterMs);
      current.child.kill('SIGKILL');
      await current.exited;
      stop = true;
      await burst;
      const acked = attempts.filter((a) => a.status === 201);
      acknowledged.push(...acked);

      const started = Date.now();
      server = await startServer({ dataDir, config });
      const restartMs = Date.now() - started;
      const orders = await allOrders(server.base, admin);
      const ids = new Set(orders.map((o) => o.id));
      const missing = acknowledged.filter((a) => !ids.has(a.orderId!));
      const stock = await stockOf(server.base, admin, shop.productId);
      const sold = soldOf(orders, shop.productId);
      rows.push(
        `#${iteration} kill@${killAfterMs}ms acked=${acked.length} refused=${attempts.filter((a) => a.status >= 400).length} cut=${attempts.filter((a) => a.status === 0).length} restart=${restartMs}ms orders=${orders.length} missing=${missing.length} stock+sold=${stock + sold}`,
      );
      assert.deepEqual(missing, [], `iteration ${iteration}: acknowledged orders lost`);
      assert.equal(stock + sold, STOCK, `iteration ${iteration}: stock ${stock} + sold ${sold} ≠ ${STOCK}`);
      assert.ok(stock >= 0);
      assert.ok(orders.length >= acknowledged.length);
      const ready = await http(server.base, 'GET', '/health/ready');
      assert.equal(ready.status, 200);
    }
    report('crash', {
      engine: 'pglite',
      seed: SEED,
      iterations: ITERATIONS,
      acknowledged: acknowledged.length,
      lost: 0,
      invariant: 'stock+sold=initial',
      runs: JSON.stringify(rows.join('; ')),
    });
  });

  test('when SIGTERM arrives under 50 concurrent clients, then in-flight orders finish, later requests get 503 or no connection, and the process exits 0 within 10 s', async () => {
    assert.ok(server, 'the server of the crash test is running');
    const current = server;
    const before = await allOrders(current.base, admin);
    const attempts: OrderAttempt[] = [];
    let stop = false;
    const client = async (c: number) => {
      for (let i = 0; !stop; i++) {
        const attempt = await guestOrder(current.base, shop, 1 + ((c + i) % 2));
        attempts.push(attempt);
        if (attempt.status === 0) return;
      }
    };
    const clients = Array.from({ length: 50 }, (_, c) => client(c));
    await sleep(1_500);
    const signalled = Date.now();
    current.child.kill('SIGTERM');
    const code = await current.exited;
    const exitMs = Date.now() - signalled;
    stop = true;
    await Promise.all(clients);

    server = await startServer({ dataDir, config });
    const orders = await allOrders(server.base, admin);
    const known = new Set(before.map((o) => o.id));
    const placed = orders.filter((o) => !known.has(o.id));
    const acked = attempts.filter((a) => a.status === 201);
    const ackedIds = new Set(acked.map((a) => a.orderId));
    // An order written but never answered would be an in-flight request cut by the shutdown.
    const unanswered = placed.filter((o) => !ackedIds.has(o.id));
    const stock = await stockOf(server.base, admin, shop.productId);
    const outcomes = new Map<string, number>();
    for (const a of attempts) {
      const k = a.cartFailed ? `cart:${a.status}` : String(a.status);
      outcomes.set(k, (outcomes.get(k) ?? 0) + 1);
    }
    const summary = [...outcomes.entries()].map(([k, v]) => `${k}:${v}`).join(',');
    report('sigterm', {
      engine: 'pglite',
      clients: 50,
      exitCode: String(code),
      exitMs,
      acknowledged: acked.length,
      writtenNotAnswered: unanswered.length,
      outcomes: summary.replaceAll(':0', ':noConnection'),
    });
    assert.equal(code, 0);
    assert.ok(exitMs < 10_000, `exit took ${exitMs} ms`);
    assert.ok(acked.length > 0);
    assert.deepEqual(
      unanswered.map((o) => o.id),
      [],
      'orders written whose request was cut',
    );
    assert.ok(acked.every((a) => orders.some((o) => o.id === a.orderId)));
    assert.equal(stock + soldOf(orders, shop.productId), STOCK);
    const unexpected = attempts.filter(
      (a) => ![201, 503, 0].includes(a.status) && !(a.cartFailed && a.status === 503),
    );
    assert.deepEqual(
      unexpected.map((a) => a.status),
      [],
      `answers other than 201/503/no connection: ${summary}`,
    );
  });
});
