import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { testEngine } from '../helpers/database.ts';
import { bearer } from '../helpers/app.ts';
import { type LoggedApp, startLoggedApp } from '../helpers/hardening/app.ts';
import { report, seedOf, sized, Tally } from '../helpers/hardening/figures.ts';
import {
  adminToken,
  createFixtures,
  registerCustomer,
  remember,
  ROOT,
} from '../helpers/hardening/fixtures.ts';
import { knownIssueOf } from '../helpers/hardening/known-issues.ts';
import { internalLeak } from '../helpers/hardening/leaks.ts';
import {
  fetchOpenApi,
  type Operation,
  operationKey,
  operationsOf,
  ResponseValidator,
} from '../helpers/hardening/openapi.ts';
import { type Fixtures, type FuzzRequest, requestArb } from '../helpers/hardening/requests.ts';

// Fuzzes EVERY operation of the OpenAPI document with valid and mutated requests, as a guest, a
// customer and a Superuser, and judges each answer against the document itself.
// FC_SEED=<seed> replays a run; HARDENING=long sends ≥ 5,000 requests.

const SEED = seedOf();
const TOTAL = sized(400, 6000);

interface Finding {
  kind: '5xx' | 'undocumented status' | 'schema violation' | 'internal leak' | 'non-JSON body';
  request: string;
  detail: string;
  /** Set when the finding is a known, reported defect (see known-issues.ts). */
  known?: string;
}

/** Statuses an answer may carry for an operation: the documented ones. */
function documented(op: Operation, status: number): boolean {
  return (
    op.responses.has(String(status)) ||
    op.responses.has(`${String(status)[0]}XX`) ||
    op.responses.has('default')
  );
}

describe(`fuzzing every operation of the OpenAPI document (FC_SEED=${SEED})`, () => {
  let t: LoggedApp;
  let ops: Operation[];
  let fx: Fixtures;
  let created: Map<string, number>;
  const tokens = { guest: '', customer: '', admin: '' };
  let customerId = 0;

  before(async () => {
    t = await startLoggedApp({ staticUsers: [ROOT] });
    ops = operationsOf(await fetchOpenApi(t.app));
    const customer = await registerCustomer(t.app, 'fuzz');
    tokens.customer = customer.token;
    customerId = customer.id;
    tokens.admin = await adminToken(t.app, [1]);
    ({ fx, created } = await createFixtures(t.app, ops, tokens, customer, { perCollection: 3, seed: SEED }));
  });
  after(() => t?.close());

  test('when every operation gets valid and mutated requests, then no 5xx, only documented statuses, valid bodies, no internals', async () => {
    const findings: Finding[] = [];
    const statuses = new Tally();
    const variants = new Tally();
    const perOp = new Map<string, Tally>();
    const validator = new ResponseValidator();
    const perOperation = Math.max(3, Math.ceil(TOTAL / ops.length));
    let sent = 0;
    const started = Date.now();

    const send = async (req: FuzzRequest) => {
      const headers = { ...req.headers };
      if (req.caller !== 'guest') headers.authorization = `Bearer ${tokens[req.caller]}`;
      const res = await t.app.inject({
        method: req.method as 'GET',
        url: req.url,
        headers,
        ...(req.payload !== undefined ? { payload: req.payload } : {}),
        remoteAddress: '127.0.0.1',
      });
      sent++;
      const key = operationKey(req.op);
      statuses.add(res.statusCode);
      variants.add(req.variant);
      if (!perOp.has(key)) perOp.set(key, new Tally());
      perOp.get(key)!.add(res.statusCode);
      const label = `${req.caller} ${req.method} ${req.url.slice(0, 160)} [${req.variant}] → ${res.statusCode}`;
      const cause = res.statusCode >= 500 ? (t.errors.get(String(res.headers['x-request-id'])) ?? '') : '';
      const found = (kind: Finding['kind'], detail: string) => {
        const known = knownIssueOf({
          kind,
          method: req.method,
          path: req.op.path,
          status: res.statusCode,
          cause,
        });
        findings.push({ kind, request: label, detail, known: known?.id });
      };
      if (res.statusCode >= 500) {
        found('5xx', `${res.body.slice(0, 200)} cause: ${cause.slice(0, 400)}`);
      }
      if (!documented(req.op, res.statusCode)) found('undocumented status', res.body.slice(0, 200));
      const leak = internalLeak(res.body);
      if (leak) found('internal leak', leak);
      // A CSV answer is fine where the operation documents text/csv for that status.
      const csv =
        String(res.headers['content-type'] ?? '').startsWith('text/csv') &&
        (req.op.mediaTypes.get(String(res.statusCode)) ?? []).includes('text/csv');
      if (res.statusCode !== 304 && res.body !== '' && !csv) {
        let json: unknown;
        try {
          json = JSON.parse(res.body);
        } catch {
          found('non-JSON body', res.body.slice(0, 120));
        }
        const schema = req.op.responses.get(String(res.statusCode));
        const error = json !== undefined && schema ? validator.check(schema, json) : null;
        if (error) found('schema violation', error);
      }
      // The Superuser may delete the fuzz customer; its token would then stand for no account
      // (a separate known issue), so carry on with a new customer.
      if (
        req.op.path === '/rest/customer/customer/{id}' &&
        req.method === 'DELETE' &&
        res.statusCode === 200
      ) {
        if (req.url.split('?')[0].endsWith(`/${customerId}`)) {
          const next = await registerCustomer(t.app, 'fuzz');
          tokens.customer = next.token;
          customerId = next.id;
          remember(fx, '/rest/customer/customer', next.id);
        }
      }
    };

    for (const [i, op] of ops.entries()) {
      const requests = fc.sample(requestArb(op, fx), { seed: SEED + i, numRuns: perOperation });
      for (const req of requests) await send(req);
    }
    const polluted = ({} as Record<string, unknown>).polluted;

    const byKind = new Tally();
    const known = new Tally();
    for (const f of findings) {
      if (f.known) known.add(f.known);
      else byKind.add(f.kind);
    }
    const opsWith2xx = [...perOp.values()].filter((tally) =>
      [...tally.counts.keys()].some((s) => s.startsWith('2')),
    ).length;
    report('fuzz', {
      seed: SEED,
      engine: testEngine,
      operations: ops.length,
      requests: sent,
      seconds: Math.round((Date.now() - started) / 1000),
      '5xx': byKind.get('5xx'),
      undocumented: byKind.get('undocumented status'),
      schemaViolations: byKind.get('schema violation'),
      leaks: byKind.get('internal leak'),
      nonJson: byKind.get('non-JSON body'),
      knownIssues: known.toString() || 'none',
      opsWith2xx,
      statuses: statuses.toString(),
      fixtures: [...created.entries()].map(([p, n]) => `${p.replace('/rest/', '')}:${n}`).join(','),
    });
    const sample = (kind: Finding['kind']) =>
      findings
        .filter((f) => f.kind === kind && !f.known)
        .slice(0, 8)
        .map((f) => `  ${f.request}\n    ${f.detail}`)
        .join('\n');
    assert.equal(polluted, undefined, 'a request polluted Object.prototype');
    assert.ok(sent >= TOTAL * 0.9, `sent ${sent}`);
    const failed = (
      ['5xx', 'internal leak', 'undocumented status', 'schema violation', 'non-JSON body'] as const
    )
      .filter((kind) => byKind.get(kind) > 0)
      .map((kind) => `${kind} (${byKind.get(kind)}):\n${sample(kind)}`);
    assert.ok(failed.length === 0, `FC_SEED=${SEED}\n${failed.join('\n')}`);
  });

  // Defects the fuzz found in other modules, fixed there; kept as exact regression tests. A new
  // one is `{ todo: 'reason' }` with a matching entry in test/helpers/hardening/known-issues.ts
  // until its owner fixes it (node:test reports a todo that passes).
  // Found by the fuzz; fixed in the cart module.
  test('when a cart route refuses an admin token with 403, then 403 is among its documented responses', async () => {
    const ops = operationsOf(await fetchOpenApi(t.app)).filter((op) => op.path.startsWith('/rest/cart'));
    assert.ok(ops.length > 0);
    const admin = await adminToken(t.app, [1]);
    const undocumented: string[] = [];
    for (const op of ops) {
      const url = op.path.replace(/\{[^}]+\}/g, '1');
      const res = await t.app.inject({
        method: op.method as 'GET',
        url,
        headers: bearer(admin),
        payload: op.body ? {} : undefined,
      });
      if (!op.responses.has(String(res.statusCode)))
        undocumented.push(`${op.method} ${op.path} → ${res.statusCode}`);
    }
    assert.deepEqual(undocumented, []);
  });

  // Found by the fuzz (the Superuser deleted the fuzz customer); fixed in the customers/cart modules.
  test('when a deleted customer’s still-valid token writes, then the answer is 401, not 500', async () => {
    const admin = await adminToken(t.app, [1]);
    const product = await t.app.inject({
      method: 'POST',
      url: '/rest/product/product',
      headers: bearer(admin),
      payload: { name: 'Gone', sku: 'GONE-1', price: 5 },
    });
    const productId = (product.json() as { data: { id: number } }).data.id;
    const customer = await registerCustomer(t.app, 'deleted');
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/rest/customer/customer/${customer.id}`,
      headers: bearer(admin),
    });
    assert.equal(deleted.statusCode, 200);
    const statuses: string[] = [];
    for (const [url, payload] of [
      ['/rest/customer/wishlist', { productId }],
      ['/rest/cart/items', { productId, qty: 1 }],
    ] as const) {
      const res = await t.app.inject({ method: 'POST', url, headers: bearer(customer.token), payload });
      statuses.push(`${url} ${res.statusCode}`);
    }
    assert.deepEqual(statuses, ['/rest/customer/wishlist 401', '/rest/cart/items 401']);
  });

  test('when a cart is worth more than the order columns hold, then place-order answers 422, not 500', async () => {
    // The fuzz above may have stored any setting (e-mail verification, order caps); start from the defaults.
    await t.app.db.execute(sql`delete from setting`);
    const admin = await adminToken(t.app, [1]);
    const customer = await registerCustomer(t.app, 'rich');
    const product = await t.app.inject({
      method: 'POST',
      url: '/rest/product/product',
      headers: bearer(admin),
      payload: { name: 'Yacht', sku: 'YACHT-1', price: 10_000_000, stockQty: 10 },
    });
    const transport = await t.app.inject({
      method: 'POST',
      url: '/rest/checkout/transport',
      headers: bearer(admin),
      payload: { name: 'Ship', price: 1 },
    });
    const productId = (product.json() as { data: { id: number } }).data.id;
    await t.app.inject({
      method: 'POST',
      url: '/rest/cart/items',
      headers: bearer(customer.token),
      payload: { productId, qty: 3 },
    });
    const order = await t.app.inject({
      method: 'POST',
      url: '/rest/checkout/place-order',
      headers: bearer(customer.token),
      payload: {
        firstName: 'R',
        lastName: 'Ich',
        phone: '+49 1',
        street: 'Kai 1',
        city: 'Kiel',
        countryAlpha2: 'DE',
        transportId: (transport.json() as { data: { id: number } }).data.id,
        payWay: 'card',
      },
    });
    assert.equal(order.statusCode, 422, order.body);
    assert.equal((order.json() as { error: { code: string } }).error.code, 'UNPROCESSABLE');
  });
});
