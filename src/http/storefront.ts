import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { NO_STORE } from './no-store.ts';
import { findBuild } from './find-build.ts';

// The shop's website (storefront/, Preact rendered on the server, built into storefront/dist during
// `npm install`) is served here by the API's own process: `/` (a redirect by Accept-Language), the
// pages under `/<locale>/`, `/sitemap.xml`, `/robots.txt` and the hashed assets under `/assets/`.
// The render bundle is a client of the public REST API only: it gets a `fetch` that answers through
// `app.inject` (the same routes, access rules and caches as any client, without a network hop).
// When it was not built, those paths answer 503 with a page that says how to build it, and the API
// is unaffected. docs/storefront.md.

/**
 * Scripts only from this origin and no inline script; styles from this origin and the inline
 * style sheet the build names by its hash (never 'unsafe-inline').
 */
const storefrontCsp = (styleSources: readonly string[]) =>
  [
    "default-src 'self'",
    "script-src 'self'",
    ["style-src 'self'", ...styleSources].join(' '),
    "img-src 'self' data: https:",
    "font-src 'self'",
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ].join('; ');

/** The locales whose paths are the storefront's when no build says otherwise. */
const DEFAULT_LOCALES = ['el', 'en'];

/** What the render bundle (storefront/src/server.tsx) exports. */
interface RenderBundle {
  LOCALES: readonly string[];
  STYLE_SOURCES?: readonly string[];
  render(
    request: {
      method: 'GET' | 'HEAD' | 'POST';
      url: string;
      origin: string;
      headers: { 'accept-language'?: string; cookie?: string; origin?: string };
      form?: Record<string, string | string[]>;
    },
    fetchImpl: typeof fetch,
  ): Promise<{ status: number; headers: Record<string, string | string[]>; body: string }>;
}

/** storefront/dist of this checkout, or undefined when it was not built. */
export const findStorefrontBuild = (): string | undefined => findBuild('storefront', 'server.mjs');

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Storefront not built</title></head>
<body>
<main>
<h1>The storefront has not been built</h1>
<p>The API is running; only the shop's website is missing. It is built by <code>npm install</code>;
build it by hand with <code>npm run build:storefront</code> and reload.</p>
</main>
</body>
</html>
`;

export interface StorefrontOptions {
  /** The built storefront; by default storefront/dist of this checkout; `null`: as if not built. */
  buildDir?: string | null;
}

/** A host header that can only be a host name or address with a port: nothing else reaches a page. */
const SAFE_HOST = /^[a-z0-9.-]+(:\d{1,5})?$|^\[[0-9a-f:.]+\](:\d{1,5})?$/i;

function originOf(request: FastifyRequest): string {
  const host = SAFE_HOST.test(request.host) ? request.host : 'localhost';
  return `${request.protocol}://${host}`;
}

/** A fetch that answers through the service's own routes, as the shopper's address. */
function inProcessFetch(app: FastifyInstance, shopper: FastifyRequest): typeof fetch {
  return async (input, init) => {
    const request = input instanceof Request && !init ? input : new Request(input, init);
    const url = new URL(request.url);
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const answer = await app.inject({
      method: request.method as 'GET',
      url: `${url.pathname}${url.search}`,
      headers: Object.fromEntries(request.headers),
      payload: body,
      remoteAddress: shopper.ip,
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value === undefined) continue;
      for (const one of [value].flat()) headers.append(name, String(one));
    }
    const empty = answer.statusCode === 204 || answer.statusCode === 304 || request.method === 'HEAD';
    return new Response(empty ? null : new Uint8Array(answer.rawPayload), {
      status: answer.statusCode,
      headers,
    });
  };
}

export const storefrontRoutes: FastifyPluginAsync<StorefrontOptions> = async (app, options) => {
  const buildDir = options.buildDir === undefined ? findStorefrontBuild() : options.buildDir;
  const bundle = buildDir
    ? ((await import(pathToFileURL(join(buildDir, 'server.mjs')).href)) as RenderBundle)
    : undefined;
  const locales = bundle?.LOCALES ?? DEFAULT_LOCALES;
  const pagePaths = ['/', '/sitemap.xml', '/robots.txt', ...locales.flatMap((l) => [`/${l}`, `/${l}/*`])];

  const csp = storefrontCsp(bundle?.STYLE_SOURCES ?? []);
  app.addHook('onRequest', (_request, reply, done) => {
    reply.header('content-security-policy', csp);
    // Not the API's no-referrer: under it browsers post the shop's own forms with `Origin: null`,
    // which the form-origin check refuses. Other sites still get no referrer.
    reply.header('referrer-policy', 'same-origin');
    done();
  });

  if (!bundle || !buildDir) {
    const notBuilt = (_request: unknown, reply: FastifyReply) =>
      reply.code(503).header('cache-control', NO_STORE).type('text/html; charset=utf-8').send(NOT_BUILT_PAGE);
    for (const url of [...pagePaths, '/assets/*']) app.get(url, { schema: { hide: true } }, notBuilt);
    return;
  }

  // Forms are posted as application/x-www-form-urlencoded (no JavaScript needed); only here.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 64 * 1024 },
    (_request, body, done) => {
      const form: Record<string, string | string[]> = {};
      for (const [name, value] of new URLSearchParams(String(body))) {
        const previous = form[name];
        form[name] = previous === undefined ? value : [previous, value].flat();
      }
      done(null, form);
    },
  );

  const answer = async (request: FastifyRequest, reply: FastifyReply) => {
    const method = request.method === 'POST' ? 'POST' : request.method === 'HEAD' ? 'HEAD' : 'GET';
    const page = await bundle.render(
      {
        method,
        url: request.url,
        origin: originOf(request),
        headers: {
          'accept-language': request.headers['accept-language'],
          cookie: request.headers.cookie,
          origin: request.headers.origin,
        },
        form: method === 'POST' ? (request.body as Record<string, string | string[]>) : undefined,
      },
      inProcessFetch(app, request),
    );
    // Pages may show the shopper's cart or name: never kept by a shared cache, unless the
    // storefront says an answer is the same for everyone (robots.txt, the sitemap).
    reply.code(page.status).header('cache-control', 'private, no-cache').headers(page.headers);
    return reply.send(page.body);
  };
  for (const url of pagePaths) app.get(url, { schema: { hide: true } }, answer);
  for (const locale of locales) app.post(`/${locale}/*`, { schema: { hide: true } }, answer);

  await app.register(fastifyStatic, {
    root: join(buildDir, 'assets'),
    prefix: '/assets/',
    decorateReply: false,
    redirect: false,
    index: false,
    preCompressed: true,
    cacheControl: false,
    // Every asset's name carries a hash of its content.
    setHeaders: (response) => response.setHeader('cache-control', 'public, max-age=31536000, immutable'),
  });
};
