import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { errorBody } from './errors.ts';

interface RoutePattern {
  path: RegExp;
  methods: Set<string>;
}

/** `/rest/order/order/:id/transition` → a pattern matching any value in place of each parameter. */
function patternOf(url: string): RegExp {
  const escaped = url
    .replace(/\/$/, '')
    .split('/')
    .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${escaped || ''}/?$`);
}

/**
 * Answers a request no route takes: 405 METHOD_NOT_ALLOWED with an Allow header when the path
 * exists for other methods (a client calling PUT where PATCH is meant learns which to use), else
 * 404 NOT_FOUND. The patterns are built on the first miss, when every route is registered.
 */
export function routeNotFound(routes: () => RouteOptions[]) {
  let patterns: RoutePattern[] | undefined;
  const build = (): RoutePattern[] => {
    const byUrl = new Map<string, Set<string>>();
    for (const route of routes()) {
      // The CORS preflight's catch-all answers OPTIONS anywhere; it says nothing about a path.
      if (route.url.includes('*')) continue;
      const methods = byUrl.get(route.url) ?? new Set<string>();
      for (const method of [route.method].flat()) methods.add(method);
      byUrl.set(route.url, methods);
    }
    return [...byUrl].map(([url, methods]) => ({ path: patternOf(url), methods }));
  };
  return (request: FastifyRequest, reply: FastifyReply) => {
    patterns ??= build();
    const path = request.url.split('?')[0];
    const allowed = new Set<string>();
    for (const pattern of patterns) {
      if (pattern.path.test(path)) for (const method of pattern.methods) allowed.add(method);
    }
    if (allowed.size > 0 && !allowed.has(request.method)) {
      return reply
        .status(405)
        .header('allow', [...allowed].sort().join(', '))
        .send(errorBody('METHOD_NOT_ALLOWED', `${request.method} is not allowed on ${path}`));
    }
    return reply.status(404).send(errorBody('NOT_FOUND', `no route for ${request.method} ${path}`));
  };
}
