import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { errorCodes } from '../../src/http/errors.ts';
import { apiTags } from '../../src/modules/index.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

interface Operation {
  parameters?: { in: string; name: string; schema: { type?: string; maximum?: number } }[];
  responses?: Record<string, unknown>;
}
type OpenApi = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
};

/** Fastify's `/:id` becomes OpenAPI's `/{id}`. */
function openApiPath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\/$/, '') || '/';
}

/** The docs themselves and the CORS preflight catch-all. */
// The back office (/admin) is a static web application, not an operation of the API; nor are the
// storefront's pages (/, /el/…, /en/…, the sitemap, robots.txt and their assets).
const UNDOCUMENTED =
  /^(\*$|\/docs|\/openapi\.json|\/admin(\/|$)|\/$|\/(el|en)(\/|$)|\/sitemap\.xml$|\/robots\.txt$|\/assets\/)/;

describe('OpenAPI document', () => {
  let t: TestApp;
  let doc: OpenApi;
  before(async () => {
    t = await startTestApp();
    const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    assert.equal(res.statusCode, 200);
    doc = res.json();
  });
  after(() => t.close());

  test('when fetched, then it is OpenAPI 3.1 and lists every error code', () => {
    assert.equal(doc.openapi, '3.1.0');
    const text = JSON.stringify(doc.components.schemas.ErrorBody);
    for (const code of errorCodes().keys()) assert.ok(text.includes(`"${code}"`), code);
  });

  test('when a route is registered, then it is documented with a success response schema and error responses', () => {
    const routes = t.app.routeList.filter((r) => !UNDOCUMENTED.test(r.url));
    assert.ok(routes.length > 0);
    const missing: string[] = [];
    for (const route of routes) {
      const methods = (Array.isArray(route.method) ? route.method : [route.method]).filter(
        (m) => m !== 'HEAD',
      );
      for (const method of methods) {
        const op = doc.paths[openApiPath(route.url)]?.[method.toLowerCase()];
        const statuses = Object.keys(op?.responses ?? {});
        const hasSuccess = statuses.some((s) => s.startsWith('2') || s === '304');
        if (!op || !hasSuccess || !statuses.includes('400') || !statuses.includes('500')) {
          missing.push(`${method} ${route.url}`);
        }
      }
    }
    assert.deepEqual(missing, [], 'routes without full documentation');
  });

  test('when a route is documented, then it names its operation and its tags, and each tag is declared by a module', () => {
    const declared = new Set(apiTags.map((tag) => tag.name));
    const unnamed: string[] = [];
    for (const route of t.app.routeList.filter((r) => !UNDOCUMENTED.test(r.url))) {
      const schema = route.schema;
      if (!schema || schema.hide) continue;
      const tags = schema.tags ?? [];
      if (!schema.operationId || tags.length === 0 || tags.some((tag) => !declared.has(tag))) {
        unnamed.push(`${route.method} ${route.url}`);
      }
    }
    assert.deepEqual(unnamed, [], 'routes without an operationId or a declared tag');
  });

  test('when an operation takes a numeric query parameter, then it has an upper bound', () => {
    const unbounded: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        for (const p of op.parameters ?? []) {
          const numeric = p.schema.type === 'integer' || p.schema.type === 'number';
          if (p.in === 'query' && numeric && p.schema.maximum === undefined)
            unbounded.push(`${method} ${path} ${p.name}`);
        }
      }
    }
    assert.deepEqual(unbounded, []);
  });

  test('when the docs page is requested, then an interactive reference is served', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs/' });
    assert.equal(res.statusCode, 200);
    assert.match(res.headers['content-type'] as string, /text\/html/);
    assert.match(res.body, /swagger/i);
  });
});
