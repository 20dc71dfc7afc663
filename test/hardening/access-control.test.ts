import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import type { RouteOptions } from 'fastify';
import type { Access } from '../../src/http/access.ts';
import { ALL_ROLE_IDS, Role } from '../../src/http/roles.ts';
import { bearer } from '../helpers/app.ts';
import { sweepAdminUserWrites } from '../helpers/hardening/admin-users.ts';
import { type LoggedApp, startLoggedApp } from '../helpers/hardening/app.ts';
import { report, seedOf, Tally } from '../helpers/hardening/figures.ts';
import {
  adminToken,
  type Customer,
  createFixtures,
  registerCustomer,
  ROOT,
} from '../helpers/hardening/fixtures.ts';
import { knownIssueOf } from '../helpers/hardening/known-issues.ts';
import { backOfficeKeys, emailsIn, internalLeak } from '../helpers/hardening/leaks.ts';
import { fetchOpenApi, type JsonSchema, type Operation, operationsOf } from '../helpers/hardening/openapi.ts';
import { collectionOf, type Fixtures } from '../helpers/hardening/requests.ts';
import { validArb } from '../helpers/hardening/values.ts';
import { BACKEND_READERS } from '../helpers/read-roles.ts';

// Access control driven by app.routeList, on the normal app (validation on, real ids, valid
// bodies): the role matrix of every /rest route, every customer-reachable id route against
// another customer's object, and a crawl of every storefront read for back-office data.
// test/auth/access-sweep.test.ts checks the guard alone with placeholder input; this file checks
// the whole request path with real data and counts how many calls reach a 2xx.

const SEED = seedOf();
const GUARD_CODES = new Set(['UNAUTHENTICATED', 'TOKEN_EXPIRED', 'FORBIDDEN']);
/** The access guard's own refusals (src/http/access.ts); a handler's FORBIDDEN is a business rule. */
const GUARD_MESSAGE =
  /needs a bearer token|needs a customer token|needs an admin token|lacks a role|Authorization header|access token/;
const SECRET = {
  supplierCode: 'SUP-SECRET-7731',
  adminNotes: 'secret-admin-note-7731',
  sku: 'HIDDEN-SKU-7731',
};

interface Route {
  method: string;
  url: string;
  access: Access;
}

function routesOf(list: RouteOptions[]): Route[] {
  return list.flatMap((r) =>
    ([] as string[])
      .concat(r.method)
      .filter((m) => m !== 'HEAD' && r.url.startsWith('/rest'))
      .map((method) => ({ method, url: r.url, access: (r.config as { access: Access }).access })),
  );
}

/** `/rest/a/:id` → `/rest/a/{id}`, the OpenAPI spelling. */
function docPath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

const METHOD_ORDER = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

describe(`access control over every route (FC_SEED=${SEED})`, () => {
  let t: LoggedApp;
  let ops: Map<string, Operation>;
  let fx: Fixtures;
  let alice: Customer;
  let bob: Customer;
  let root: string;
  const leaks: string[] = [];

  before(async () => {
    t = await startLoggedApp({ staticUsers: [ROOT] });
    const list = operationsOf(await fetchOpenApi(t.app));
    ops = new Map(list.map((op) => [`${op.method} ${op.path}`, op]));
    alice = await registerCustomer(t.app, 'alice');
    bob = await registerCustomer(t.app, 'bob');
    root = await adminToken(t.app, [Role.Superuser]);
    ({ fx } = await createFixtures(t.app, list, { admin: root, customer: alice.token }, alice, {
      perCollection: 2,
      seed: SEED,
    }));
    // Back-office values that must never reach the storefront, and a product it must not see.
    let secretId = 0;
    for (const product of [
      {
        name: 'Secret',
        sku: 'SECRET-1',
        price: 10,
        costPrice: 4.25,
        supplierCode: SECRET.supplierCode,
        adminNotes: SECRET.adminNotes,
        stockQty: 7,
        active: true,
      },
      { name: 'Hidden', sku: SECRET.sku, price: 10, active: false },
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/rest/product/product',
        headers: bearer(root),
        payload: product,
      });
      assert.equal(res.statusCode, 201, res.body);
      secretId ||= (res.json() as { data: { id: number } }).data.id;
    }
    // Bob's own wishlist holds a product Alice's does not (hers holds every fixture product).
    await t.app.inject({
      method: 'POST',
      url: '/rest/customer/wishlist',
      headers: bearer(bob.token),
      payload: { productId: secretId },
    });
  });
  after(() => t?.close());

  /** Storefront answers: no back-office key, no secret value, no other customer's e-mail, no internals. */
  function checkStorefront(who: 'guest' | 'customer', label: string, text: string): void {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return;
    }
    for (const key of backOfficeKeys(json)) leaks.push(`${who} ${label}: back-office field ${key}`);
    for (const secret of Object.values(SECRET))
      if (text.includes(secret)) leaks.push(`${who} ${label}: ${secret}`);
    const own = who === 'customer' ? alice.email : '';
    for (const email of emailsIn(text)) {
      if (email.toLowerCase() !== own && !email.endsWith('@cdn.example.com'))
        leaks.push(`${who} ${label}: e-mail ${email}`);
    }
    const internal = internalLeak(text);
    if (internal) leaks.push(`${who} ${label}: ${internal}`);
  }

  /** The relations a documented item schema declares, nested (category, category.parent…). */
  function relationsOf(schema: JsonSchema | undefined, prefix = '', depth = 0): string[] {
    const data = (schema?.properties as Record<string, JsonSchema> | undefined)?.data;
    const item = (data?.type === 'array' ? (data.items as JsonSchema) : data) ?? schema;
    const props = (item?.properties ?? {}) as Record<string, JsonSchema>;
    const out: string[] = [];
    for (const [name, prop] of Object.entries(props)) {
      if (!String(prop.description ?? '').startsWith('Embedded with')) continue;
      const path = prefix ? `${prefix}.${name}` : name;
      out.push(path);
      const target = (prop.type === 'array' ? prop.items : prop) as JsonSchema;
      if (depth < 2) out.push(...relationsOf({ properties: { data: target } }, path, depth + 1));
    }
    return out;
  }

  test('when every storefront read is crawled as a guest and as a customer, then no back-office data leaks', async () => {
    const reads = routesOf(t.app.routeList).filter((r) => r.method === 'GET' && r.access.kind !== 'admin');
    let calls = 0;
    const seen = new Set<string>();
    for (const who of ['guest', 'customer'] as const) {
      const headers = who === 'customer' ? bearer(alice.token) : {};
      for (const route of reads) {
        if (who === 'guest' && route.access.kind !== 'public') continue;
        const op = ops.get(`GET ${docPath(route.url)}`);
        const relations = relationsOf(op?.responses.get('200'));
        const withParam = relations.length ? `with=${relations.join(',')}` : '';
        const urls: string[] = [];
        if (!route.url.includes(':')) {
          urls.push(`${route.url}?limit=100${withParam ? `&${withParam}` : ''}`);
        } else {
          const param = /:([A-Za-z0-9_]+)/.exec(route.url)![1];
          const key = param === 'id' ? collectionOf(docPath(route.url)) : param;
          for (const value of (fx.pathValues.get(key) ?? []).slice(0, 3)) {
            urls.push(`${route.url.replace(`:${param}`, String(value))}${withParam ? `?${withParam}` : ''}`);
          }
        }
        for (const url of urls) {
          const res = await t.app.inject({ method: 'GET', url, headers });
          calls++;
          seen.add(route.url);
          assert.ok(res.statusCode < 500, `${who} GET ${url} → ${res.statusCode} ${res.body.slice(0, 200)}`);
          checkStorefront(who, `GET ${url}`, res.body);
          // Every entity a list shows, shown one by one, with the same relations.
          const rows = (res.json() as { data?: unknown }).data;
          if (Array.isArray(rows) && !route.url.includes(':') && ops.has(`GET ${route.url}/{id}`)) {
            for (const row of rows.slice(0, 20) as { id?: number }[]) {
              if (typeof row.id !== 'number') continue;
              const one = await t.app.inject({
                method: 'GET',
                url: `${route.url}/${row.id}?${withParam}`,
                headers,
              });
              calls++;
              checkStorefront(who, `GET ${route.url}/${row.id}`, one.body);
            }
          }
        }
      }
    }
    report('storefront-crawl', { reads: reads.length, readsCrawled: seen.size, calls, leaks: leaks.length });
    assert.deepEqual(leaks.slice(0, 20), []);
  });

  test('when a customer aims at another customer’s objects by id, then 404 and nothing changes', async () => {
    const routes = routesOf(t.app.routeList).filter(
      (r) => /:[A-Za-z]/.test(r.url) && (r.access.kind === 'customer' || r.access.kind === 'customerOrAdmin'),
    );
    const alicesObjects = new Map<string, string>([['/rest/customer/customer', String(alice.id)]]);
    for (const [collection, values] of fx.pathValues) {
      const owned = collection.startsWith('/rest/customer/') || collection === '/rest/order/order';
      if (owned && collection !== '/rest/customer/customer' && values.length) {
        alicesObjects.set(collection, String(values[0]));
      }
    }
    const wishlisted = (fx.pathValues.get('productId') ?? [])[0];
    const outcomes = new Tally();
    const wrong: string[] = [];
    let covered = 0;
    const uncovered: string[] = [];
    for (const route of routes) {
      const param = /:([A-Za-z0-9_]+)/.exec(route.url)![1];
      const target =
        param === 'id'
          ? alicesObjects.get(collectionOf(docPath(route.url)))
          : param === 'productId'
            ? String(wishlisted)
            : undefined;
      if (!target) {
        uncovered.push(`${route.method} ${route.url}`);
        continue;
      }
      covered++;
      const url = route.url.replace(`:${param}`, target);
      const showUrl = param === 'id' ? url.replace(/\/transition$/, '') : '/rest/customer/wishlist?limit=100';
      const before = await t.app.inject({ method: 'GET', url: showUrl, headers: bearer(alice.token) });
      const op = ops.get(`${route.method} ${docPath(route.url)}`);
      const body = op?.body
        ? (fc.sample(validArb(op.body, fx.pools), { seed: SEED, numRuns: 1 })[0] as object)
        : undefined;
      const res = await t.app.inject({
        method: route.method as 'GET',
        url,
        headers: bearer(bob.token),
        payload: body,
      });
      outcomes.add(res.statusCode);
      const afterwards = await t.app.inject({ method: 'GET', url: showUrl, headers: bearer(alice.token) });
      const expected = res.statusCode === 404 || (res.statusCode === 400 && route.method !== 'GET');
      if (!expected)
        wrong.push(
          `${route.method} ${url} as another customer → ${res.statusCode} ${res.body.slice(0, 120)}`,
        );
      if (afterwards.body !== before.body)
        wrong.push(`${route.method} ${url} as another customer changed the object`);
      checkStorefront('customer', `${route.method} ${url}`, res.body.replaceAll(bob.email, ''));
    }
    // Lists filtered on the owner never cross over either.
    for (const collection of alicesObjects.keys()) {
      const res = await t.app.inject({
        method: 'GET',
        url: `${collection}?limit=100&customerId=${alice.id}&id=${alicesObjects.get(collection)}`,
        headers: bearer(bob.token),
      });
      const rows = (res.json() as { data?: unknown[] }).data ?? [];
      if (res.statusCode === 200 && rows.length)
        wrong.push(`GET ${collection} as another customer lists ${rows.length} of Alice's rows`);
    }
    report('ownership', {
      idRoutes: routes.length,
      covered,
      uncovered: uncovered.join(',') || 'none',
      outcomes: outcomes.toString(),
      crossings: wrong.length,
    });
    assert.ok(covered >= Math.min(routes.length, 1), 'at least one id route is aimed at');
    assert.deepEqual(wrong, []);
  });

  test('when the read routes of personal and commercial data are declared, then their roles are exactly the read-role table', async () => {
    const reads = routesOf(t.app.routeList).filter((r) => r.method === 'GET');
    for (const [path, readers] of Object.entries(BACKEND_READERS)) {
      const routes = reads.filter((r) => r.url === path || r.url.startsWith(`${path}/`));
      assert.ok(routes.length > 0, `no read route under ${path}`);
      for (const route of routes) {
        assert.ok(route.access.kind === 'admin' || route.access.kind === 'customerOrAdmin', route.url);
        const roles = 'roles' in route.access ? [...route.access.roles].sort() : [];
        assert.deepEqual(roles, [...readers].sort(), `${route.url} reads with roles ${roles}`);
      }
    }
  });

  test('when every /rest route is called by each kind of caller, then 401 / 403 / 403 / passes, with valid input', async () => {
    const routes = routesOf(t.app.routeList).sort(
      (a, b) => METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method),
    );
    const reached2xx = new Tally();
    const knownIssues = new Tally();
    const wrong: string[] = [];
    let covered = 0;
    const token = (roles: number[]) => adminToken(t.app, roles);

    const call = async (route: Route, auth: string | undefined, attempts: number) => {
      const op = ops.get(`${route.method} ${docPath(route.url)}`);
      const url = concrete(route.url);
      const bodies = op?.body
        ? fc.sample(validArb(op.body, fx.pools), { seed: SEED + covered, numRuns: attempts })
        : [undefined];
      let last = { status: 0, code: '' };
      for (const body of bodies) {
        const res = await t.app.inject({
          method: route.method as 'GET',
          url,
          headers: auth ? bearer(auth) : {},
          ...(body !== undefined ? { payload: body as object } : {}),
        });
        const error =
          res.statusCode >= 400
            ? (res.json() as { error?: { code?: string; message?: string } }).error
            : undefined;
        // A 403 from a handler (e.g. only a Superuser may grant Superuser) has passed the guard.
        const guarded = error?.code === 'FORBIDDEN' ? GUARD_MESSAGE.test(error.message ?? '') : true;
        last = { status: res.statusCode, code: error && guarded ? String(error.code) : '' };
        const cause = res.statusCode >= 500 ? (t.errors.get(String(res.headers['x-request-id'])) ?? '') : '';
        const known = knownIssueOf({
          kind: '5xx',
          method: route.method,
          path: docPath(route.url),
          status: res.statusCode,
          cause,
        });
        if (known) knownIssues.add(known.id);
        else if (res.statusCode >= 500) {
          wrong.push(
            `${route.method} ${url} → ${res.statusCode} ${JSON.stringify(body)} cause: ${cause.slice(0, 300)}`,
          );
        }
        if (res.statusCode < 300 || GUARD_CODES.has(last.code)) break;
      }
      return last;
    };
    const concrete = (url: string) =>
      url.replace(/:([A-Za-z0-9_]+)/g, (_, p: string) => {
        const key = p === 'id' ? collectionOf(docPath(url)) : p;
        return String((fx.pathValues.get(key) ?? [1])[0]);
      });
    const expect = (
      route: Route,
      who: string,
      got: { status: number; code: string },
      want: 401 | 403 | 'pass',
    ) => {
      const ok = want === 'pass' ? !GUARD_CODES.has(got.code) : got.status === want;
      if (!ok)
        wrong.push(`${route.method} ${route.url} with ${who}: ${got.status} ${got.code}, expected ${want}`);
      if (want === 'pass' && got.status < 300) reached2xx.add(who);
    };

    for (const route of routes) {
      covered++;
      const a = route.access;
      const roles = a.kind === 'admin' || a.kind === 'customerOrAdmin' ? a.roles : [];
      const lacking = ALL_ROLE_IDS.find((r) => r !== Role.Superuser && !roles.includes(r));
      if (a.kind === 'public') {
        expect(route, 'no token', await call(route, undefined, 3), 'pass');
        expect(route, 'customer', await call(route, bob.token, 3), 'pass');
        continue;
      }
      expect(route, 'no token', await call(route, undefined, 1), 401);
      if (a.kind === 'customer') {
        expect(route, 'superuser', await call(route, root, 1), 403);
        expect(route, 'customer', await call(route, bob.token, 3), 'pass');
        continue;
      }
      expect(
        route,
        'customer',
        await call(route, bob.token, a.kind === 'customerOrAdmin' ? 3 : 1),
        a.kind === 'customerOrAdmin' ? 'pass' : 403,
      );
      if (roles.length && lacking !== undefined)
        expect(route, 'admin lacking the role', await call(route, await token([lacking]), 1), 403);
      expect(
        route,
        'admin with the role',
        await call(route, await token(roles.length ? [roles[0]] : []), 3),
        'pass',
      );
      expect(route, 'superuser', await call(route, root, 3), 'pass');
    }
    const total = routesOf(t.app.routeList).length;
    report('access-matrix', {
      routes: total,
      covered: `${Math.round((covered / total) * 100)}%`,
      wrong: wrong.length,
      knownIssues: knownIssues.toString() || 'none',
      reached2xx: reached2xx.toString(),
    });
    assert.equal(covered, total);
    assert.deepEqual(wrong.slice(0, 30), []);
  });

  test('when every role writes back-office users, then each answer is the documented one, refusals change nothing and only allowed resets are mailed', async () => {
    const sweep = await sweepAdminUserWrites(t.app, root, (roles) => adminToken(t.app, roles));
    const outbox = await t.app.inject({
      method: 'GET',
      url: '/rest/system/mail?limit=100000',
      headers: bearer(root),
    });
    const mailedTo = new Set((outbox.json() as { data: { to: string }[] }).data.map((m) => m.to));
    const missing = sweep.mailed.filter((to) => !mailedTo.has(to));
    const stray = sweep.notMailed.filter((to) => mailedTo.has(to));
    report('admin-user-writes', {
      actors: sweep.actors,
      calls: sweep.calls,
      outcomes: sweep.outcomes.toString(),
      wrong: sweep.wrong.length,
      resetsMailed: sweep.mailed.length - missing.length,
      strayMails: stray.length,
    });
    assert.deepEqual(sweep.wrong.slice(0, 30), []);
    assert.deepEqual({ missing, stray }, { missing: [], stray: [] });
  });
});
