import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { NO_STORE } from './no-store.ts';
import { findBuild } from './find-build.ts';

// The back office (admin/, react-admin built by Vite into admin/dist during `npm install`) is
// served here at /admin by the API's own process. It is a static single-page application that
// calls the public REST API only; its routes are hash routes, so no path fallback is needed.
// When it was not built, /admin answers 503 with a page that says how to build it, and the API
// is unaffected.

/** Emotion (react-admin's styling) writes <style> elements; images are shop-provided URLs. */
const ADMIN_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: https:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "object-src 'none'",
].join('; ');

/** admin/dist of this checkout, or undefined when it was not built. */
export const findAdminBuild = (): string | undefined => findBuild('admin', 'index.html');

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Back office not built</title></head>
<body>
<main>
<h1>The back office has not been built</h1>
<p>The API is running; only the web back office is missing. It is built by <code>npm install</code>
when its dependencies are installed; build it by hand with <code>npm run build:admin</code> and reload.</p>
</main>
</body>
</html>
`;

export interface AdminUiOptions {
  /** The built back office; by default admin/dist of this checkout; `null`: as if not built. */
  buildDir?: string | null;
}

export const adminUiRoutes: FastifyPluginAsync<AdminUiOptions> = async (app, options) => {
  const buildDir = options.buildDir === undefined ? findAdminBuild() : options.buildDir;

  app.addHook('onRequest', (_request, reply, done) => {
    reply.header('content-security-policy', ADMIN_CSP);
    done();
  });

  if (!buildDir) {
    const notBuilt = (_request: unknown, reply: FastifyReply) =>
      reply.code(503).header('cache-control', NO_STORE).type('text/html; charset=utf-8').send(NOT_BUILT_PAGE);
    app.get('/admin', { schema: { hide: true } }, notBuilt);
    app.get('/admin/*', { schema: { hide: true } }, notBuilt);
    return;
  }

  // The page itself, at /admin and /admin/ (one route: the router ignores trailing slashes, which
  // the static plugin's index handling does not expect). Its asset URLs are absolute (/admin/assets/…).
  const page = readFileSync(join(buildDir, 'index.html'));
  app.get('/admin', { schema: { hide: true } }, (_request, reply) =>
    reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(page),
  );

  await app.register(fastifyStatic, {
    root: buildDir,
    prefix: '/admin/',
    decorateReply: false,
    redirect: false,
    index: false,
    // The build writes .br and .gz copies (scripts/build-admin.mjs).
    preCompressed: true,
    cacheControl: false,
    setHeaders: (response, path) => {
      // Hashed file names never change content; the page itself is always revalidated.
      const immutable = /[\\/]assets[\\/]/.test(path);
      response.setHeader('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
};
