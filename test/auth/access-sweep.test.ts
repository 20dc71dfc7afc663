import assert from 'node:assert/strict';
import diagnostics from 'node:diagnostics_channel';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance, HTTPMethods, InjectOptions, RouteOptions } from 'fastify';
import { type App, buildApp } from '../../src/app.ts';
import type { Access } from '../../src/http/access.ts';
import { ALL_ROLE_IDS, Role } from '../../src/http/roles.ts';
import { bearer, sessionToken, testConfig } from '../helpers/app.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { registerCustomer } from './auth-helpers.ts';

/**
 * Calls EVERY route the app registers, whoever wrote it, with each kind of caller, and checks
 * the answer of the access guard. Routes are collected with an onRoute hook installed through
 * Fastify's `fastify.initialization` diagnostics channel, i.e. before buildApp adds anything,
 * so a route added later by any module is swept without touching this file.
 */

interface SweptRoute {
  method: string;
  url: string;
  access?: Access;
}

/** Routes outside /rest (no access declaration): infrastructure only; `*` is the not-found handler. */
const OUTSIDE_REST = [
  /^\/health\//,
  /^\/docs(\/|$)/,
  /^\/openapi\.json$/,
  /^\/?\*$/,
  /^\/admin(\/|$)/,
  // The image files: public like the product pages that show them (GET only).
  /^\/media\/:id\/:name$/,
  // The storefront (src/http/storefront.ts): its pages, the forms they post (which call the API
  // in-process with the shopper's own tokens, so the API's access rules apply), the sitemap,
  // robots.txt and the hashed assets.
  /^\/$/,
  /^\/(el|en)(\/\*)?$/,
  /^\/(sitemap\.xml|robots\.txt)$/,
  /^\/assets\/\*$/,
];
/**
 * Writes that anyone may call. A public POST/PUT/PATCH/DELETE elsewhere fails the sweep: if it
 * is really meant to be public, add it here (a reviewed decision), otherwise give it a guard.
 */
const PUBLIC_WRITES = [
  /^\/rest\/auth\/(admin|customer)\/(login|refresh|logout)$/,
  /^\/rest\/auth\/customer\/register$/,
  // Whoever forgot a password has no token: these answer alike for any address or code.
  /^\/rest\/auth\/customer\/(password-reset|password-reset\/confirm|verify-email)$/,
  /^\/rest\/auth\/admin\/password-reset\/confirm$/,
  /^\/rest\/cart(\/|$)/,
  /^\/rest\/(v1\/)?checkout\/(totals|place-order)$/,
  // A guest pays the order it placed; the intent answers only its owner (404 to anyone else).
  /^\/rest\/payments\/test\/(confirm|authenticate)$/,
  // A provider's events carry no token: their signature is checked (400 when it does not hold).
  /^\/rest\/payments\/:provider\/webhook$/,
];
const PLACEHOLDER_ID = '999999';
const SWEEP_ADMIN = { username: 'sweep@example.com', password: 'sweep-password', name: 'Sweep', roles: [1] };
const WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

/** Builds the real app and records every route it registers. */
async function buildRecordingApp(testDb: TestDatabase): Promise<{ app: App; routes: SweptRoute[] }> {
  const routes: SweptRoute[] = [];
  const record = (route: RouteOptions) => {
    const methods = ([] as HTTPMethods[]).concat(route.method);
    const access = (route.config as { access?: Access } | undefined)?.access;
    for (const method of methods) routes.push({ method, url: route.url, access });
    // The sweep sends placeholder input; it checks the guard, not the schemas, so this
    // instance skips request validation (the guard runs in preHandler, after validation).
    if (route.url.startsWith('/rest')) route.validatorCompiler = () => () => true;
  };
  const onInit = (message: unknown) =>
    (message as { fastify: FastifyInstance }).fastify.addHook('onRoute', record);
  diagnostics.subscribe('fastify.initialization', onInit);
  try {
    const app = await buildApp({
      config: testConfig({ staticUsers: [SWEEP_ADMIN] }),
      database: testDb.database,
      logger: false,
    });
    return { app, routes };
  } finally {
    diagnostics.unsubscribe('fastify.initialization', onInit);
  }
}

function concreteUrl(url: string): string {
  return url.replace(/:[A-Za-z0-9_]+/g, PLACEHOLDER_ID).replace(/\*$/, 'x');
}

describe('access sweep over every registered route', () => {
  let app: App;
  let routes: SweptRoute[];
  let testDb: TestDatabase;
  let customerToken: string;
  const adminToken = (roles: number[]) =>
    sessionToken(app, { sub: `static:${SWEEP_ADMIN.username}`, ctx: 'admin', roles });

  before(async () => {
    testDb = await createTestDatabase();
    ({ app, routes } = await buildRecordingApp(testDb));
    assert.throws(
      () => app.get('/rest/sweep/unguarded', async () => ({})),
      /declares no config\.access/,
      'a /rest route without config.access stops the start',
    );
    routes = routes.filter((r) => r.url !== '/rest/sweep/unguarded'); // recorded before the guard refused it
    await app.ready();
    customerToken = (await registerCustomer(app)).access_token;
  });
  after(async () => {
    await app.close();
    await testDb.destroy();
  });

  const swept = () => routes.filter((r) => r.url.startsWith('/rest') && r.method !== 'HEAD');

  async function call(route: SweptRoute, token?: string) {
    const res = await app.inject({
      method: route.method as InjectOptions['method'],
      url: concreteUrl(route.url),
      headers: token ? bearer(token) : {},
      ...(WITH_BODY.has(route.method) ? { payload: {} } : {}),
    });
    return { status: res.statusCode, code: res.statusCode >= 400 ? res.json().error?.code : undefined };
  }

  function expectStatus(
    route: SweptRoute,
    who: string,
    got: { status: number; code?: string },
    status: number,
  ) {
    assert.equal(got.status, status, `${route.method} ${route.url} with ${who}: ${got.status} ${got.code}`);
  }

  /** The guard's refusals; a handler may still answer e.g. 401 INVALID_CREDENTIALS to placeholder input. */
  function expectPassed(route: SweptRoute, who: string, got: { status: number; code?: string }) {
    assert.ok(
      !['UNAUTHENTICATED', 'TOKEN_EXPIRED', 'FORBIDDEN'].includes(got.code ?? ''),
      `${route.method} ${route.url} with ${who} must pass the guard, got ${got.status} ${got.code}`,
    );
  }

  test('when the app is built, then every /rest route declares access and nothing else is exposed outside /rest', () => {
    assert.ok(swept().length > 0);
    for (const route of routes) {
      if (route.url.startsWith('/rest'))
        assert.ok(route.access, `${route.method} ${route.url} has no access`);
      else
        assert.ok(
          OUTSIDE_REST.some((p) => p.test(route.url)),
          `unexpected route outside /rest: ${route.url}`,
        );
    }
    const urls = swept().map((r) => `${r.method} ${r.url}`);
    for (const known of [
      'POST /rest/system/admin-user',
      'GET /rest/auth/customer/me',
      'POST /rest/auth/admin/login',
    ]) {
      assert.ok(urls.includes(known), `${known} is swept`);
    }
  });

  test('when a route that writes is public, then it is one of the reviewed public writes', () => {
    for (const route of swept().filter((r) => r.access?.kind === 'public' && r.method !== 'GET')) {
      assert.ok(
        PUBLIC_WRITES.some((p) => p.test(route.url)),
        `${route.method} ${route.url} is public: guard it, or add it to PUBLIC_WRITES if anyone may call it`,
      );
    }
  });

  test('when an admin route is called by each kind of caller, then 401 / 403 / 403 / passes', async () => {
    for (const route of swept().filter((r) => r.access?.kind === 'admin')) {
      const roles = (route.access as { roles: number[] }).roles;
      expectStatus(route, 'no token', await call(route), 401);
      expectStatus(route, 'a customer token', await call(route, customerToken), 403);
      const lacking = ALL_ROLE_IDS.find((r) => r !== Role.Superuser && !roles.includes(r));
      if (roles.length > 0 && lacking !== undefined) {
        expectStatus(
          route,
          `an admin token with role ${lacking} only`,
          await call(route, await adminToken([lacking])),
          403,
        );
      }
      const holding = roles.length > 0 ? [roles[0]] : [];
      expectPassed(
        route,
        `an admin token with roles [${holding}]`,
        await call(route, await adminToken(holding)),
      );
      expectPassed(route, 'a Superuser token', await call(route, await adminToken([Role.Superuser])));
    }
  });

  test('when a customer route is called without a token or with an admin token, then 401 / 403; a customer passes', async () => {
    for (const route of swept().filter((r) => r.access?.kind === 'customer')) {
      expectStatus(route, 'no token', await call(route), 401);
      expectStatus(
        route,
        'a Superuser admin token',
        await call(route, await adminToken([Role.Superuser])),
        403,
      );
      expectPassed(route, 'a customer token', await call(route, customerToken));
    }
  });

  test('when a customer-or-admin route is called, then no token 401, an admin lacking the role 403, others pass', async () => {
    for (const route of swept().filter((r) => r.access?.kind === 'customerOrAdmin')) {
      const roles = (route.access as { roles: number[] }).roles;
      expectStatus(route, 'no token', await call(route), 401);
      const lacking = ALL_ROLE_IDS.find((r) => r !== Role.Superuser && !roles.includes(r));
      if (roles.length > 0 && lacking !== undefined) {
        expectStatus(
          route,
          `an admin token with role ${lacking} only`,
          await call(route, await adminToken([lacking])),
          403,
        );
      }
      expectPassed(route, 'a customer token', await call(route, customerToken));
      expectPassed(route, 'a Superuser token', await call(route, await adminToken([Role.Superuser])));
    }
  });

  test('when any /rest route gets an invalid bearer token, then 401, public routes included', async () => {
    for (const route of swept()) {
      expectStatus(route, 'a garbage token', await call(route, 'garbage.token.value'), 401);
    }
  });
});
