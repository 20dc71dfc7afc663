import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { testEngine } from '../helpers/database.ts';
import { type LoggedApp, startLoggedApp } from '../helpers/hardening/app.ts';
import { report, seedOf, sized, Tally } from '../helpers/hardening/figures.ts';
import { adminToken, createFixtures, registerCustomer, ROOT } from '../helpers/hardening/fixtures.ts';
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

  before(async () => {
    t = await startLoggedApp({ staticUsers: [ROOT] });
    ops = operationsOf(await fetchOpenApi(t.app));
    const customer = await registerCustomer(t.app, 'fuzz');
    tokens.customer = customer.token;
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
      if (res.statusCode >= 500) {
        const cause = t.errors.get(String(res.headers['x-request-id'])) ?? '';
        findings.push({
          kind: '5xx',
          request: label,
          detail: `${res.body.slice(0, 200)} cause: ${cause.slice(0, 400)}`,
        });
      }
      if (!documented(req.op, res.statusCode)) {
        findings.push({ kind: 'undocumented status', request: label, detail: res.body.slice(0, 200) });
      }
      const leak = internalLeak(res.body);
      if (leak) findings.push({ kind: 'internal leak', request: label, detail: leak });
      if (res.statusCode === 304 || res.body === '') return;
      let json: unknown;
      try {
        json = JSON.parse(res.body);
      } catch {
        findings.push({ kind: 'non-JSON body', request: label, detail: res.body.slice(0, 120) });
        return;
      }
      const schema = req.op.responses.get(String(res.statusCode));
      if (schema) {
        const error = validator.check(schema, json);
        if (error) findings.push({ kind: 'schema violation', request: label, detail: error });
      }
    };

    for (const [i, op] of ops.entries()) {
      const requests = fc.sample(requestArb(op, fx), { seed: SEED + i, numRuns: perOperation });
      for (const req of requests) await send(req);
    }
    const polluted = ({} as Record<string, unknown>).polluted;

    const byKind = new Tally();
    for (const f of findings) byKind.add(f.kind);
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
      opsWith2xx,
      statuses: statuses.toString(),
      fixtures: [...created.entries()].map(([p, n]) => `${p.replace('/rest/', '')}:${n}`).join(','),
    });
    const sample = (kind: Finding['kind']) =>
      findings
        .filter((f) => f.kind === kind)
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
});
