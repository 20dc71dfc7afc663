// /admin: the built back office is served by the API's process, with its own CSP and caching; when
// it was not built, /admin answers 503 with a page that says how to build it, and the API still works.
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import Fastify from 'fastify';
import { adminUiRoutes, findAdminBuild } from '../../src/http/admin-ui.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

const built = findAdminBuild();

describe('/admin', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(async () => t.close());

  test('the page and its scripts are served, compressed when asked, hashed assets cached for good', {
    skip: built ? false : 'admin/dist is not built (npm run build:admin)',
  }, async () => {
    for (const url of ['/admin', '/admin/']) {
      const page = await t.app.inject({ url });
      assert.equal(page.statusCode, 200, url);
      assert.match(String(page.headers['content-type']), /text\/html/);
      assert.equal(page.headers['cache-control'], 'no-cache');
      assert.match(String(page.headers['content-security-policy']), /script-src 'self'/);
      assert.match(page.body, /<div id="root">/);
    }
    const script = readdirSync(`${built}/assets`).find((name) => name.endsWith('.js'));
    const asset = await t.app.inject({
      url: `/admin/assets/${script}`,
      headers: { 'accept-encoding': 'gzip' },
    });
    assert.equal(asset.statusCode, 200);
    assert.equal(asset.headers['content-encoding'], 'gzip');
    assert.equal(asset.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.equal((await t.app.inject({ url: '/admin/assets/missing.js' })).statusCode, 404);
    // The admin's routes stay out of the API document.
    const document = (await t.app.inject({ url: '/openapi.json' })).json();
    assert.ok(!Object.keys(document.paths).some((path) => path.startsWith('/admin')));
  });

  test('without a build, /admin answers 503 with a page that says how to build it; the API works', async () => {
    const app = Fastify();
    await app.register(adminUiRoutes, { buildDir: null });
    for (const url of ['/admin', '/admin/', '/admin/assets/x.js']) {
      const res = await app.inject({ url });
      assert.equal(res.statusCode, 503, url);
      assert.match(res.body, /npm run build:admin/);
      // Never kept: once the build exists, the next load must reach it.
      assert.match(String(res.headers['cache-control']), /no-store/);
    }
    await app.close();
    assert.equal((await t.app.inject({ url: '/health/live' })).statusCode, 200);
  });

  test('in CI the back office must have been built by npm ci', { skip: process.env.CI !== 'true' }, () => {
    assert.ok(built && existsSync(`${built}/index.html`), 'admin/dist/index.html is missing after npm ci');
  });
});
